import { type SubmitEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { graphql } from '../../gql';
import { execute } from '../../api/client';
import { useGraphQL } from '../../api/hooks';
import { ErrorNotice, Field, Section, SelectField, fieldErrorOf, formLevelError } from '../../components/ui';
import { localInputToIso, money } from '../../format';
import { useSession } from '../../session';
import { formText } from '../../form-data';

const ObjectsQuery = graphql(`
  query DashboardPreviewObjects {
    bookableObjects {
      id
      name
      accommodation {
        id
        name
        timeZone
      }
    }
  }
`);

const QuoteQuery = graphql(`
  query DashboardPriceQuote($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!) {
    priceQuote(objectId: $objectId, startTime: $startTime, endTime: $endTime) {
      basePrice
      adjustments {
        rule
        amount
      }
      totalPrice
      currency
      breakdown
    }
  }
`);

export function PricePreview() {
  const session = useSession();
  const objects = useGraphQL(['objects', 'preview'], ObjectsQuery, {}, { enabled: session.can('catalog:read') });
  const quote = useMutation({
    mutationFn: (variables: { objectId: string; startTime: string; endTime: string }) => execute(QuoteQuery, variables),
  });

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const objectId = formText(form, 'objectId');
    const zone = objects.data?.bookableObjects.find((o) => o.id === objectId)?.accommodation.timeZone;
    quote.mutate({
      objectId,
      startTime: localInputToIso(formText(form, 'startTime'), zone) ?? formText(form, 'startTime'),
      endTime: localInputToIso(formText(form, 'endTime'), zone) ?? formText(form, 'endTime'),
    });
  };

  const result = quote.data?.priceQuote;
  return (
    <Section
      title="Price preview"
      description="What a booking would cost if made now. Times are the accommodation's local time."
    >
      <div className="preview">
        <form className="stack" onSubmit={submit} aria-label="Price preview">
          <ErrorNotice error={formLevelError(quote.error, ['objectId', 'startTime', 'endTime'])} />
          <SelectField label="Object" name="objectId" required error={fieldErrorOf(quote.error, 'objectId')}>
            {objects.data?.bookableObjects.map((object) => (
              <option key={object.id} value={object.id}>
                {object.name} · {object.accommodation.name}
              </option>
            ))}
          </SelectField>
          <div className="form-row">
            <Field
              label="Start"
              name="startTime"
              type="datetime-local"
              required
              error={fieldErrorOf(quote.error, 'startTime')}
            />
            <Field
              label="End"
              name="endTime"
              type="datetime-local"
              required
              error={fieldErrorOf(quote.error, 'endTime')}
            />
          </div>
          <div>
            <button type="submit" className="button button-primary" disabled={quote.isPending}>
              Preview price
            </button>
          </div>
        </form>
        <div className="preview-result" aria-live="polite">
          {result ? (
            <table className="breakdown">
              <caption className="visually-hidden">Quoted price</caption>
              <tbody>
                <tr>
                  <th scope="row">Base price</th>
                  <td className="numeric">{money(result.basePrice, result.currency)}</td>
                </tr>
                {result.adjustments.map((adjustment) => (
                  <tr key={adjustment.rule}>
                    <th scope="row">{adjustment.rule}</th>
                    <td className="numeric">
                      {adjustment.amount > 0 ? '+' : ''}
                      {money(adjustment.amount, result.currency)}
                    </td>
                  </tr>
                ))}
                <tr className="total">
                  <th scope="row">Total</th>
                  <td className="numeric">{money(result.totalPrice, result.currency)}</td>
                </tr>
              </tbody>
            </table>
          ) : (
            <p className="muted">Choose an object and a time range to see the price and every rule that applies.</p>
          )}
        </div>
      </div>
    </Section>
  );
}
