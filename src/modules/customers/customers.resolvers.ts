import type { Resolvers } from '../../../generated/graphql.js';
import type { GraphQLContext } from '../../kernel/context.js';
import { tenantOf, livemodeOf } from '../../kernel/auth/principal.js';
import { connectionSelection, inTransaction } from '../../kernel/graphql-helpers.js';
import { whenReady } from '../../kernel/db/batch.js';
import type { CustomerRow } from '../../kernel/db/types.js';
import { Kind, type GraphQLResolveInfo } from 'graphql';
import { CONNECTION_PAGE, connectionOf, pageSizeOf } from '../../kernel/paging.js';
import { invalid } from '../../kernel/errors.js';
import { auditRequest } from '../audit/index.js';
import {
  customerBookingCursor,
  parseCustomerBookings,
  parseCustomerId,
  parseListCustomers,
  parseMergeCustomers,
  parseUpdateCustomer,
} from './customers.commands.js';
import * as repo from './customers.repository.js';
import { getCustomer, listCustomers, mergeCustomers, updateCustomer } from './customers.service.js';
import { eraseCustomer, exportCustomerData, purgeErasedVersions } from './erase.service.js';

const holdsCustomersRead = (ctx: GraphQLContext) =>
  ctx.principal?.kind === 'apiKey' && ctx.principal.scopes.includes('customers:read');

/** The export, audited (customer.data_exported) in its own transaction. */
export async function auditedExport(ctx: GraphQLContext, tenantId: string, id: string) {
  return inTransaction(ctx, async (trx) => {
    const data = await exportCustomerData(trx, tenantId, id, ctx.deps.now());
    await auditRequest(
      ctx,
      trx,
      tenantId,
      'customer.data_exported',
      { type: 'customer', id: data.customer.id },
      {
        bookings: data.bookings.length,
      },
    );
    return data;
  });
}

export const customerResolvers: Resolvers = {
  Query: {
    customers: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseListCustomers({ search: a.search, first: a.first });
      return (await listCustomers(ctx.db, tenantId, command, false)).nodes;
    },
    customersConnection: (_, a, ctx, info) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseListCustomers(a);
      return listCustomers(ctx.db, tenantId, command, connectionSelection(info).totalCount);
    },
    customer: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal);
      return getCustomer(ctx.db, tenantId, parseCustomerId(a).id);
    },
    customerList: async (_, { limit, ...a }, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      // `limit` is cursor paging's name for `first` (docs/api.md, "Cursor paging"); not both.
      if (limit != null && a.first != null)
        throw invalid([
          { field: 'limit', message: 'cannot be combined with first' },
          { field: 'first', message: 'cannot be combined with limit' },
        ]);
      const first = limit != null ? pageSizeOf(CONNECTION_PAGE, limit, 'limit') : a.first;
      const page = await listCustomers(ctx.db, tenantId, parseListCustomers({ ...a, first }), false);
      return { customers: page.nodes, next: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null };
    },
    customerDetails: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return { customer: await getCustomer(ctx.db, tenantId, parseCustomerId(a).id) };
    },
    exportCustomerData: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return auditedExport(ctx, tenantId, parseCustomerId(a).id);
    },
  },
  Mutation: {
    updateCustomer: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseUpdateCustomer(a);
      return inTransaction(ctx, async (trx) => {
        const { after, changed } = await updateCustomer(trx, tenantId, command, ctx.deps.now());
        // The fields changed, never their values: the log keeps no copy of personal data.
        if (changed.length)
          await auditRequest(ctx, trx, tenantId, 'customer.updated', { type: 'customer', id: after.id }, { changed });
        return after;
      });
    },
    mergeCustomers: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const { targetId, sourceIds } = parseMergeCustomers(a);
      return inTransaction(ctx, async (trx) => {
        const result = await mergeCustomers(trx, tenantId, targetId, sourceIds, ctx.deps.now());
        await auditRequest(
          ctx,
          trx,
          tenantId,
          'customer.merged',
          { type: 'customer', id: targetId },
          {
            mergedIds: result.mergedIds,
            movedBookings: result.movedBookings,
          },
        );
        return result;
      });
    },
    eraseCustomer: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const { id } = parseCustomerId(a);
      const erasure = await inTransaction(ctx, async (trx) => {
        const result = await eraseCustomer(trx, tenantId, id, ctx.deps.now());
        // Counts only: the entry must not hold what was erased.
        if (result.erased)
          await auditRequest(
            ctx,
            trx,
            tenantId,
            'customer.erased',
            { type: 'customer', id: result.customer.id },
            {
              bookings: result.bookings,
              scrubbed: result.scrubbed,
            },
          );
        return result;
      });
      if (erasure.erased) await purgeErasedVersions(ctx.deps);
      return erasure.customer;
    },
  },
  Customer: {
    livemode: (_, __, ctx) => livemodeOf(ctx.principal),
    marketingConsent: (row) => row.marketing_consent,
    marketingConsentAt: (row) => row.marketing_consent_at,
    erasedAt: (row) => row.erased_at,
    createdAt: (row) => row.created_at,
    updatedAt: (row) => row.updated_at,
    bookings: async (row, a, ctx, info) => {
      const { first, after, key } = parseCustomerBookings(a);
      const [rows, total] = await Promise.all([
        repo.customerBookings(ctx.db, row.tenant_id, row.id, first + 1, key),
        connectionSelection(info).totalCount ? repo.countCustomerBookings(ctx.db, row.tenant_id, row.id) : null,
      ]);
      return connectionOf(rows, first, after, customerBookingCursor, total);
    },
    bookingCount: (row, _, ctx) => whenReady(ctx.loaders.customerStats.get(row.id), (s) => s?.bookings ?? 0),
    noShowCount: (row, _, ctx) => whenReady(ctx.loaders.customerStats.get(row.id), (s) => s?.no_shows ?? 0),
    totalSpent: async (row, _, ctx) =>
      (await ctx.loaders.customerTotals.load(row.id)).map((t) => ({
        currency: t.currency,
        paid: t.paid,
        refunded: t.refunded,
        net: t.paid - t.refunded,
      })),
    payments: async (row, _, ctx) =>
      (await repo.customerPayments(ctx.db, row.tenant_id, row.id)).map((p) => ({
        id: p.id,
        bookingId: p.booking_id,
        kind: p.kind,
        provider: p.provider,
        amount: p.amount,
        currency: p.currency,
        createdAt: p.created_at,
      })),
  },
  Booking: {
    customerId: (row) => row.customer_id,
    customer: (row, _, ctx, info) => {
      if (!row.customer_id || !holdsCustomersRead(ctx)) return null;
      // `customer { id }` (REST's reference to it) needs no read: the foreign key keeps the row.
      if (selectsOnlyId(info)) return { id: row.customer_id } as CustomerRow;
      return whenReady(ctx.loaders.customerById.get(row.customer_id), (c) => c ?? null);
    },
  },
};

/** Whether the field's selection is `{ id }` (and __typename) alone, with no fragment. */
function selectsOnlyId(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.every((node) =>
    (node.selectionSet?.selections ?? []).every(
      (s) => s.kind === Kind.FIELD && (s.name.value === 'id' || s.name.value === '__typename') && !s.directives?.length,
    ),
  );
}
