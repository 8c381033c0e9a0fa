import { useState, type SubmitEvent } from 'react';
import { graphql } from '../../gql';
import type { DashboardCreatePricingRuleMutationVariables, DashboardPricingRulesQuery } from '../../gql/graphql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import {
  Badge,
  CheckboxGroup,
  Empty,
  ErrorNotice,
  Field,
  Loading,
  Section,
  SelectField,
  TableWrap,
  fieldErrorOf,
  formLevelError,
} from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formText } from '../../form-data';

const RulesQuery = graphql(`
  query DashboardPricingRules {
    pricingRules {
      id
      name
      type
      active
      objectIds
      percent
      startTime
      endTime
      weekdays
      minDurationMinutes
      minDaysInAdvance
    }
  }
`);

const ObjectsQuery = graphql(`
  query DashboardPricingRuleObjects {
    accommodations {
      id
      name
      objects {
        id
        name
      }
    }
  }
`);

const CreateRule = graphql(`
  mutation DashboardCreatePricingRule(
    $name: String!
    $type: String!
    $percent: Int!
    $active: Boolean
    $objectIds: [ID!]
    $startTime: String
    $endTime: String
    $weekdays: [String!]
    $minDurationMinutes: Int
    $minDaysInAdvance: Int
  ) {
    createPricingRule(
      name: $name
      type: $type
      percent: $percent
      active: $active
      objectIds: $objectIds
      startTime: $startTime
      endTime: $endTime
      weekdays: $weekdays
      minDurationMinutes: $minDurationMinutes
      minDaysInAdvance: $minDaysInAdvance
    ) {
      pricingRule {
        id
      }
    }
  }
`);

const UpdateRule = graphql(`
  mutation DashboardUpdatePricingRule(
    $id: ID!
    $name: String
    $type: String
    $percent: Int
    $active: Boolean
    $objectIds: [ID!]
    $startTime: String
    $endTime: String
    $weekdays: [String!]
    $minDurationMinutes: Int
    $minDaysInAdvance: Int
  ) {
    updatePricingRule(
      id: $id
      name: $name
      type: $type
      percent: $percent
      active: $active
      objectIds: $objectIds
      startTime: $startTime
      endTime: $endTime
      weekdays: $weekdays
      minDurationMinutes: $minDurationMinutes
      minDaysInAdvance: $minDaysInAdvance
    ) {
      id
      active
    }
  }
`);

const DeactivateRule = graphql(`
  mutation DashboardDeactivatePricingRule($id: ID!) {
    deactivatePricingRule(id: $id) {
      id
      active
    }
  }
`);

const DeleteRule = graphql(`
  mutation DashboardDeletePricingRule($id: ID!) {
    deletePricingRule(id: $id)
  }
`);

type Rule = DashboardPricingRulesQuery['pricingRules'][number];
const TYPES = [
  { value: 'time_based', label: 'Time of day' },
  { value: 'day_based', label: 'Weekdays' },
  { value: 'duration_based', label: 'Long bookings' },
  { value: 'early_bird', label: 'Early bird' },
];
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const FIELDS = [
  'name',
  'type',
  'percent',
  'objectIds',
  'startTime',
  'endTime',
  'weekdays',
  'minDurationMinutes',
  'minDaysInAdvance',
];
/** The labels the form shows, for messages that name another field ("must differ from startTime"). */
const LABELS: Record<string, string> = {
  startTime: 'From',
  endTime: 'Until',
  weekdays: 'Weekdays',
  percent: 'Adjustment',
  objectIds: 'Objects',
  minDurationMinutes: 'Bookings of at least',
  minDaysInAdvance: 'Booked at least',
};

function describe(rule: Rule): string {
  switch (rule.type) {
    case 'time_based':
      return `${rule.startTime ?? '?'}–${rule.endTime ?? '?'}${rule.weekdays?.length ? ` on ${rule.weekdays.join(', ')}` : ', every day'}`;
    case 'day_based':
      return `on ${(rule.weekdays ?? []).join(', ')}`;
    case 'duration_based':
      return `bookings of ${rule.minDurationMinutes ?? '?'} min or more`;
    case 'early_bird':
      return `booked ${rule.minDaysInAdvance ?? '?'}+ days ahead`;
    default:
      return rule.type;
  }
}

interface ObjectChoice {
  value: string;
  label: string;
}

/** The objects a rule applies to, by name ("Every object" when it names none). */
function objectsOf(rule: Rule, choices: ObjectChoice[] | undefined): string {
  if (rule.objectIds.length === 0) return 'Every object';
  if (!choices) return `${rule.objectIds.length} ${rule.objectIds.length === 1 ? 'object' : 'objects'}`;
  const names = rule.objectIds.map((id) => choices.find((c) => c.value === id)?.label ?? 'a deleted object');
  return names.join(', ');
}

function RuleForm({
  rule,
  objects,
  label,
  submitLabel,
  error,
  busy,
  onSubmit,
  onCancel,
}: {
  rule?: Rule;
  objects: ObjectChoice[] | undefined;
  label: string;
  submitLabel: string;
  error: unknown;
  busy: boolean;
  onSubmit: (values: DashboardCreatePricingRuleMutationVariables) => void;
  onCancel?: () => void;
}) {
  const [type, setType] = useState<string>(rule?.type ?? 'time_based');
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => formText(form, name).trim();
    const int = (name: string) => (text(name) === '' ? undefined : Number(text(name)));
    const values: DashboardCreatePricingRuleMutationVariables = {
      name: text('name'),
      type,
      percent: int('percent') ?? 0,
      objectIds: objects ? form.getAll('objectIds').map(String) : undefined,
    };
    if (type === 'time_based')
      Object.assign(values, {
        startTime: text('startTime'),
        endTime: text('endTime'),
        weekdays: form.getAll('weekdays').map(String),
      });
    if (type === 'day_based') values.weekdays = form.getAll('weekdays').map(String);
    if (type === 'duration_based') values.minDurationMinutes = int('minDurationMinutes');
    if (type === 'early_bird') values.minDaysInAdvance = int('minDaysInAdvance');
    onSubmit(values);
  };
  return (
    <form className="stack inset" onSubmit={submit} aria-label={label}>
      <ErrorNotice error={formLevelError(error, FIELDS)} />
      <div className="form-row">
        <Field
          label="Name"
          name="name"
          defaultValue={rule?.name}
          required
          placeholder="e.g. Evening peak"
          error={fieldErrorOf(error, 'name', LABELS)}
        />
        <SelectField
          label="Applies to"
          name="type"
          value={type}
          onChange={(event) => setType(event.target.value)}
          error={fieldErrorOf(error, 'type', LABELS)}
        >
          {TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </SelectField>
        <Field
          label="Adjustment (%)"
          name="percent"
          type="number"
          min={-100}
          max={1000}
          defaultValue={rule?.percent}
          required
          hint="Negative for a discount."
          error={fieldErrorOf(error, 'percent', LABELS)}
        />
      </div>
      {objects ? (
        objects.length === 0 ? (
          <p className="small muted">There are no objects yet: the rule applies to every object.</p>
        ) : (
          <CheckboxGroup
            legend="Objects"
            hint="None ticked: every object, those added later too."
            name="objectIds"
            options={objects}
            defaultChecked={rule?.objectIds ?? []}
            error={fieldErrorOf(error, 'objectIds', LABELS)}
          />
        )
      ) : null}
      {type === 'time_based' ? (
        <div className="form-row">
          <Field
            label="From (HH:MM)"
            name="startTime"
            defaultValue={rule?.startTime ?? ''}
            placeholder="18:00"
            error={fieldErrorOf(error, 'startTime', LABELS)}
          />
          <Field
            label="Until (HH:MM)"
            name="endTime"
            defaultValue={rule?.endTime ?? ''}
            placeholder="22:00"
            error={fieldErrorOf(error, 'endTime', LABELS)}
          />
        </div>
      ) : null}
      {type === 'time_based' || type === 'day_based' ? (
        <CheckboxGroup
          legend={type === 'time_based' ? 'Weekdays (none: every day)' : 'Weekdays'}
          name="weekdays"
          options={WEEKDAYS.map((d) => ({ value: d, label: d.charAt(0).toUpperCase() + d.slice(1) }))}
          defaultChecked={rule?.weekdays ?? []}
          error={fieldErrorOf(error, 'weekdays', LABELS)}
        />
      ) : null}
      {type === 'duration_based' ? (
        <Field
          label="Bookings of at least (minutes)"
          name="minDurationMinutes"
          type="number"
          min={1}
          defaultValue={rule?.minDurationMinutes ?? ''}
          error={fieldErrorOf(error, 'minDurationMinutes', LABELS)}
        />
      ) : null}
      {type === 'early_bird' ? (
        <Field
          label="Booked at least (days ahead)"
          name="minDaysInAdvance"
          type="number"
          min={1}
          defaultValue={rule?.minDaysInAdvance ?? ''}
          error={fieldErrorOf(error, 'minDaysInAdvance', LABELS)}
        />
      ) : null}
      <div className="button-row">
        <button type="submit" className="button button-primary button-small" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button button-secondary button-small" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

export function PricingRules({ canWrite }: { canWrite: boolean }) {
  const rules = useGraphQL(['pricingRules'], RulesQuery, {});
  const catalog = useGraphQL(['pricingRuleObjects'], ObjectsQuery, {});
  const multipleVenues = (catalog.data?.accommodations.length ?? 0) > 1;
  const objects = catalog.data?.accommodations.flatMap((a) =>
    a.objects.map((o) => ({ value: o.id, label: multipleVenues ? `${o.name} (${a.name})` : o.name })),
  );
  const create = useGraphQLMutation(CreateRule, [['pricingRules']]);
  const update = useGraphQLMutation(UpdateRule, [['pricingRules']]);
  const deactivate = useGraphQLMutation(DeactivateRule, [['pricingRules']]);
  const remove = useGraphQLMutation(DeleteRule, [['pricingRules']]);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const edited = rules.data?.pricingRules.find((r) => r.id === editing);

  return (
    <Section
      title="Pricing rules"
      description="Applied in this order; each adds a percentage of the base price."
      actions={
        canWrite && !adding ? (
          <button type="button" className="button button-secondary button-small" onClick={() => setAdding(true)}>
            Add rule
          </button>
        ) : undefined
      }
    >
      <ErrorNotice error={rules.error ?? deactivate.error ?? remove.error} />
      {adding ? (
        <RuleForm
          objects={objects}
          label="New pricing rule"
          submitLabel="Create rule"
          error={create.error}
          busy={create.isPending}
          onCancel={() => setAdding(false)}
          onSubmit={(values) => create.mutate(values, { onSuccess: () => setAdding(false) })}
        />
      ) : null}
      {edited ? (
        <RuleForm
          key={edited.id}
          rule={edited}
          objects={objects}
          label={`Edit ${edited.name}`}
          submitLabel="Save rule"
          error={update.error}
          busy={update.isPending}
          onCancel={() => setEditing(null)}
          onSubmit={(values) => update.mutate({ id: edited.id, ...values }, { onSuccess: () => setEditing(null) })}
        />
      ) : null}
      {rules.isPending ? (
        <Loading />
      ) : rules.data?.pricingRules.length === 0 ? (
        <Empty>No pricing rules: every booking costs the object's hourly price.</Empty>
      ) : (
        <TableWrap label="Pricing rules" stackable>
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">When</th>
              <th scope="col">Objects</th>
              <th scope="col" className="numeric">
                Adjustment
              </th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.data?.pricingRules.map((rule) => (
              <tr key={rule.id}>
                <td className="strong" data-label="Rule">
                  {rule.name}
                </td>
                <td data-label="When">{describe(rule)}</td>
                <td className="text" data-label="Objects">
                  {objectsOf(rule, objects)}
                </td>
                <td className="numeric" data-label="Adjustment">
                  {rule.percent > 0 ? '+' : ''}
                  {rule.percent}%
                </td>
                <td data-label="Status">
                  <Badge value={rule.active ? 'active' : 'inactive'} />
                </td>
                <td className="actions">
                  {canWrite ? (
                    <>
                      <button
                        type="button"
                        className="button button-secondary button-small"
                        onClick={() => setEditing(rule.id)}
                      >
                        Edit
                      </button>
                      {rule.active ? (
                        <button
                          type="button"
                          className="button button-secondary button-small"
                          disabled={deactivate.isPending}
                          onClick={() => deactivate.mutate({ id: rule.id })}
                        >
                          Deactivate
                        </button>
                      ) : (
                        <button
                          type="button"
                          className="button button-secondary button-small"
                          disabled={update.isPending}
                          onClick={() => update.mutate({ id: rule.id, active: true })}
                        >
                          Activate
                        </button>
                      )}
                      <ConfirmButton
                        label="Delete"
                        confirmLabel="Yes, delete"
                        question={`Delete ${rule.name}?`}
                        busy={remove.isPending}
                        onConfirm={() => remove.mutate({ id: rule.id })}
                      />
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
    </Section>
  );
}
