import { useState, type SubmitEvent } from 'react';
import { graphql } from '../../gql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import { Badge, Empty, ErrorNotice, Field, Loading, Section, fieldErrorOf, formLevelError } from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formText } from '../../form-data';

const PoliciesQuery = graphql(`
  query DashboardCancellationPolicies {
    cancellationPolicies {
      id
      name
      isDefault
      tiers {
        hoursBeforeStart
        refundPercent
      }
    }
  }
`);

const CreatePolicy = graphql(`
  mutation DashboardCreateCancellationPolicy($name: String!, $isDefault: Boolean, $tiers: [CancellationTierInput!]!) {
    createCancellationPolicy(name: $name, isDefault: $isDefault, tiers: $tiers) {
      id
    }
  }
`);

const SetDefault = graphql(`
  mutation DashboardSetDefaultPolicy($id: ID!) {
    setDefaultCancellationPolicy(id: $id) {
      id
    }
  }
`);

const DeletePolicy = graphql(`
  mutation DashboardDeleteCancellationPolicy($id: ID!) {
    deleteCancellationPolicy(id: $id)
  }
`);

interface TierDraft {
  key: number;
  hours: string;
  percent: string;
}

export function CancellationPolicies({ canWrite }: { canWrite: boolean }) {
  const policies = useGraphQL(['cancellationPolicies'], PoliciesQuery, {});
  const create = useGraphQLMutation(CreatePolicy, [['cancellationPolicies']]);
  const setDefault = useGraphQLMutation(SetDefault, [['cancellationPolicies']]);
  const remove = useGraphQLMutation(DeletePolicy, [['cancellationPolicies']]);
  const [adding, setAdding] = useState(false);
  const [tiers, setTiers] = useState<TierDraft[]>([
    { key: 1, hours: '48', percent: '100' },
    { key: 2, hours: '24', percent: '50' },
  ]);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate(
      {
        name: formText(form, 'name'),
        isDefault: form.get('isDefault') === 'on',
        tiers: tiers.map((tier) => ({ hoursBeforeStart: Number(tier.hours), refundPercent: Number(tier.percent) })),
      },
      { onSuccess: () => setAdding(false) },
    );
  };

  const change = (key: number, patch: Partial<TierDraft>) =>
    setTiers(tiers.map((tier) => (tier.key === key ? { ...tier, ...patch } : tier)));

  return (
    <Section
      title="Cancellation policies"
      description="The default policy sets the refund: the tier with the most hours that the notice still meets applies, and notice below the lowest tier refunds nothing. Without a default, cancellations refund in full."
      actions={
        canWrite && !adding ? (
          <button type="button" className="button button-secondary button-small" onClick={() => setAdding(true)}>
            Add policy
          </button>
        ) : undefined
      }
    >
      <ErrorNotice error={policies.error ?? setDefault.error ?? remove.error} />
      {adding ? (
        <form className="stack inset" onSubmit={submit} aria-label="New cancellation policy">
          <ErrorNotice error={formLevelError(create.error, ['name', 'tiers'])} />
          <Field
            label="Name"
            name="name"
            required
            placeholder="e.g. Standard"
            error={fieldErrorOf(create.error, 'name')}
          />
          <fieldset className="tiers">
            <legend>Refund tiers</legend>
            {tiers.map((tier, index) => (
              <div key={tier.key} className="form-row form-row-end">
                <Field
                  label={`Tier ${index + 1}: hours before start`}
                  type="number"
                  min={0}
                  value={tier.hours}
                  onChange={(event) => change(tier.key, { hours: event.target.value })}
                  error={fieldErrorOf(create.error, `tiers[${index}].hoursBeforeStart`)}
                />
                <Field
                  label={`Tier ${index + 1}: refund (%)`}
                  type="number"
                  min={0}
                  max={100}
                  value={tier.percent}
                  onChange={(event) => change(tier.key, { percent: event.target.value })}
                  error={fieldErrorOf(create.error, `tiers[${index}].refundPercent`)}
                />
                <button
                  type="button"
                  className="button button-secondary button-small"
                  disabled={tiers.length === 1}
                  onClick={() => setTiers(tiers.filter((t) => t.key !== tier.key))}
                >
                  Remove tier {index + 1}
                </button>
              </div>
            ))}
            <button
              type="button"
              className="button button-secondary button-small"
              onClick={() =>
                setTiers([...tiers, { key: Math.max(0, ...tiers.map((t) => t.key)) + 1, hours: '0', percent: '0' }])
              }
            >
              Add tier
            </button>
            {fieldErrorOf(create.error, 'tiers') && !tiers.some((_, i) => fieldErrorOf(create.error, `tiers[${i}]`)) ? (
              <p className="field-error">{fieldErrorOf(create.error, 'tiers')}</p>
            ) : null}
          </fieldset>
          <label className="checkbox">
            <input type="checkbox" name="isDefault" defaultChecked />
            <span>Make it the default policy</span>
          </label>
          <div className="button-row">
            <button type="submit" className="button button-primary button-small" disabled={create.isPending}>
              Create policy
            </button>
            <button type="button" className="button button-secondary button-small" onClick={() => setAdding(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {policies.isPending ? (
        <Loading />
      ) : policies.data?.cancellationPolicies.length === 0 ? (
        <Empty>No cancellation policies: cancellations refund in full.</Empty>
      ) : (
        <ul className="policy-list">
          {policies.data?.cancellationPolicies.map((policy) => (
            <li key={policy.id} className="policy">
              <div className="policy-head">
                <h3>
                  {policy.name} {policy.isDefault ? <Badge value="active" label="default" /> : null}
                </h3>
                {canWrite ? (
                  <div className="button-row">
                    {policy.isDefault ? null : (
                      <button
                        type="button"
                        className="button button-secondary button-small"
                        disabled={setDefault.isPending}
                        onClick={() => setDefault.mutate({ id: policy.id })}
                      >
                        Make default
                      </button>
                    )}
                    <ConfirmButton
                      label="Delete"
                      confirmLabel="Yes, delete"
                      question={`Delete ${policy.name}?`}
                      busy={remove.isPending}
                      onConfirm={() => remove.mutate({ id: policy.id })}
                    />
                  </div>
                ) : null}
              </div>
              <ul className="tiers-list">
                {policy.tiers.map((tier) => (
                  <li key={tier.hoursBeforeStart}>
                    {tier.hoursBeforeStart === 0 ? 'Any notice' : `${tier.hoursBeforeStart} h or more before the start`}
                    : <strong>{tier.refundPercent}% refund</strong>
                  </li>
                ))}
                {Math.min(...policy.tiers.map((tier) => tier.hoursBeforeStart)) > 0 ? (
                  <li>
                    Less than {Math.min(...policy.tiers.map((tier) => tier.hoursBeforeStart))} h before the start:{' '}
                    <strong>no refund</strong>
                  </li>
                ) : null}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
