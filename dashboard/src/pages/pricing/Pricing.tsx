import { PageHeader } from '../../components/ui';
import { useSession } from '../../session';
import { PricingRules } from './PricingRules';
import { CancellationPolicies } from './CancellationPolicies';
import { PricePreview } from './PricePreview';

export function PricingPage() {
  const session = useSession();
  const canWrite = session.can('pricing:write');
  return (
    <>
      <PageHeader
        title="Pricing"
        description="Rules adjust each object's hourly price; the default cancellation policy sets refunds. Try a booking in the preview."
      />
      <PricePreview />
      <PricingRules canWrite={canWrite} />
      <CancellationPolicies canWrite={canWrite} />
    </>
  );
}
