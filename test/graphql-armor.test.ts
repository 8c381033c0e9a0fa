import { beforeAll, describe, expect, it } from 'vitest';
import { getIntrospectionQuery } from 'graphql';
import { harness, type Harness, type TestResponse } from './harness.js';
import { GRAPHQL_LIMITS } from '../src/transport/graphql/armor.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

const create = (name: string) =>
  `createAccommodation(name: "${name}", address: "Teststrasse 1", timeZone: "Europe/Berlin")`;

/** Nested accommodation ↔ objects selections, `levels` fields deep below the root field. */
function nested(levels: number): string {
  let selection = '{ id }';
  for (let i = 0; i < levels - 1; i += 1) selection = `{ ${i % 2 === 0 ? 'accommodation' : 'objects'} ${selection} }`;
  return selection;
}

/** Refused by validation: an error, and no `data` entry (nothing was executed). */
function expectRefused(res: TestResponse, message: RegExp) {
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors?.length).toBeGreaterThan(0);
  expect(res.body.errors.map((e: { message: string }) => e.message).join('\n')).toMatch(message);
}

async function accommodationNames(apiKey: string): Promise<string[]> {
  const res = await h.graphql(apiKey, '{ accommodations { name } }');
  return res.body.data.accommodations.map((a: { name: string }) => a.name);
}

describe('GraphQL limits refuse a document before it runs', () => {
  it('depth', async () => {
    const { apiKey } = await h.tenant();
    // createAccommodation { objects { accommodation { … { id } } } }: depth limit + 2 fields deep.
    const tooDeep = `mutation { ${create('deep')} ${nested(GRAPHQL_LIMITS.maxDepth + 1)
      .replace(/^\{ /, '{ objects { ')
      .replace(/ \}$/, ' } }')} }`;
    expectRefused(await h.graphql(apiKey, tooDeep), /depth limit of 10 exceeded/i);
    const fine = `mutation { ${create('shallow')} { objects { accommodation { name } } } }`;
    expect((await h.graphql(apiKey, fine)).body.errors).toBeUndefined();
    expect(await accommodationNames(apiKey)).toEqual(['shallow']);
  });

  it('depth, with the operation named __schema (a published bypass)', async () => {
    const { apiKey } = await h.tenant();
    const query = `mutation __schema { ${create('bypass')} { objects ${nested(GRAPHQL_LIMITS.maxDepth + 1)} } }`;
    expectRefused(await h.graphql(apiKey, query), /depth limit/i);
    expect(await accommodationNames(apiKey)).toEqual([]);
  });

  it('depth, with the depth hidden in a fragment named __schema (a published bypass)', async () => {
    const { apiKey } = await h.tenant();
    const query = `mutation { ${create('bypass')} { ...__schema } }
      fragment __schema on Accommodation { objects ${nested(GRAPHQL_LIMITS.maxDepth + 1)} }`;
    expectRefused(await h.graphql(apiKey, query), /depth limit/i);
    expect(await accommodationNames(apiKey)).toEqual([]);
  });

  it('aliases', async () => {
    const { apiKey } = await h.tenant();
    const fields = Array.from(
      { length: GRAPHQL_LIMITS.maxAliases + 1 },
      (_, i) => `a${i}: ${create(`alias ${i}`)} { id }`,
    );
    expectRefused(await h.graphql(apiKey, `mutation { ${fields.join(' ')} }`), /aliases limit of 15 exceeded/i);
    expect(await accommodationNames(apiKey)).toEqual([]);
  });

  it('directives', async () => {
    const { apiKey } = await h.tenant();
    const fields = Array.from({ length: GRAPHQL_LIMITS.maxDirectives + 1 }, () => 'id @include(if: true)').join(' ');
    expectRefused(
      await h.graphql(apiKey, `mutation { ${create('directives')} { ${fields} } }`),
      /directives limit of 20 exceeded/i,
    );
    expect(await accommodationNames(apiKey)).toEqual([]);
  });

  it('tokens', async () => {
    const { apiKey } = await h.tenant();
    const fields = Array.from({ length: GRAPHQL_LIMITS.maxTokens }, () => 'id').join(' ');
    expectRefused(
      await h.graphql(apiKey, `mutation { ${create('tokens')} { ${fields} } }`),
      /token limit of 1000 exceeded/i,
    );
    expect(await accommodationNames(apiKey)).toEqual([]);
  });

  it('cost', async () => {
    const { apiKey } = await h.tenant();
    // Within the depth (10), alias and token limits, but each level multiplies the cost by 1.5.
    const object = `fragment O on BookableObject { id name pricePerHour accommodationId createdAt
      openingHours { schedule { monday { open close } tuesday { open close } wednesday { open close } thursday { open close }
        friday { open close } saturday { open close } sunday { open close } } specialDates { date closed reason open close } }
      bookingRules { minDurationMinutes maxDurationMinutes slotIncrementMinutes minAdvanceMinutes maxAdvanceDays bufferMinutes } }`;
    const tree = (name: string) =>
      `${create(name)} { objects { ...O accommodation { objects { ...O accommodation { objects { ...O } } } } } }`;
    const query = `mutation { a: ${tree('cost a')} b: ${tree('cost b')} } ${object}`;
    expectRefused(await h.graphql(apiKey, query), /cost limit of 5000 exceeded/i);
    expect(await accommodationNames(apiKey)).toEqual([]);
  });

  it('hides field suggestions', async () => {
    const { apiKey } = await h.tenant();
    const res = await h.graphql(apiKey, '{ accommodationz { name } }');
    expect(res.body.errors[0].message).toMatch(/Cannot query field "accommodationz"/);
    expect(res.body.errors[0].message).not.toMatch(/Did you mean/);
    expect(JSON.stringify(res.body)).not.toContain('"accommodations"');
  });

  it('runs no batches', async () => {
    const { apiKey } = await h.tenant();
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/graphql',
      apiKey,
      body: [{ query: '{ viewer { id } }' }, { query: '{ viewer { name } }' }],
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(res.body)).not.toContain('"viewer"');
  });
});

describe('introspection', () => {
  it('answers the standard introspection query', async () => {
    const { apiKey } = await h.tenant();
    const res = await h.graphql(apiKey, getIntrospectionQuery());
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });

  it('refuses recursive introspection', async () => {
    const { apiKey } = await h.tenant();
    const res = await h.graphql(
      apiKey,
      '{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }',
    );
    expectRefused(res, /[Mm]aximum introspection depth exceeded/);
  });
});
