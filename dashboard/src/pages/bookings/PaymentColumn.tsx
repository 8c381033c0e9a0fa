import type { PaymentStatus } from '../../gql/graphql';
import { Badge, SelectField } from '../../components/ui';

// The Bookings list's payment column and filter (docs/payments.md).

const PAYMENT_STATUSES: { value: PaymentStatus; label: string }[] = [
  { value: 'UNPAID', label: 'Unpaid' },
  { value: 'PAID', label: 'Paid' },
  { value: 'PARTIALLY_REFUNDED', label: 'Partly refunded' },
  { value: 'REFUNDED', label: 'Refunded' },
];

export function PaymentFilterField({ value }: { value: PaymentStatus | undefined }) {
  return (
    <SelectField label="Payment" name="paymentStatus" defaultValue={value ?? ''}>
      <option value="">Any payment</option>
      {PAYMENT_STATUSES.map((status) => (
        <option key={status.value} value={status.value}>
          {status.label}
        </option>
      ))}
    </SelectField>
  );
}

export function PaymentCell({ status }: { status: PaymentStatus }) {
  return (
    <td data-label="Payment">
      <Badge value={status} />
    </td>
  );
}
