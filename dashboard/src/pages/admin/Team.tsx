import { Empty, PageHeader, Section } from '../../components/ui';

export function TeamPage() {
  return (
    <>
      <PageHeader title="Team" description="People who sign in to this dashboard, and their roles." />
      <Section title="Members">
        <Empty>Loading the team needs the users API.</Empty>
      </Section>
    </>
  );
}
