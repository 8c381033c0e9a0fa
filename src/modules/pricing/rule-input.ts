import type { PricingRuleType, Weekday } from '../../kernel/db/types.js';
import { invalid, type FieldError } from '../../kernel/errors.js';
import { WEEKDAYS, isHhmm, isNonEmptyString, isUuid, isWeekday } from '../../kernel/validation.js';
import type { PricingRule } from './engine.js';

// Pure checks of a pricing rule as given by a caller (GraphQL, REST or a catalog file); the
// service checks that the objects exist.

export const PRICING_RULE_TYPES: readonly PricingRuleType[] = [
  'time_based',
  'day_based',
  'duration_based',
  'early_bird',
];

/** Fields that only some types take; a type's required fields come first. */
const TYPE_FIELDS = {
  time_based: { required: ['startTime', 'endTime'], optional: ['weekdays'] },
  day_based: { required: ['weekdays'], optional: [] },
  duration_based: { required: ['minDurationMinutes'], optional: [] },
  early_bird: { required: ['minDaysInAdvance'], optional: [] },
} as const satisfies Record<PricingRuleType, { required: readonly TypeField[]; optional: readonly TypeField[] }>;

type TypeField = 'startTime' | 'endTime' | 'weekdays' | 'minDurationMinutes' | 'minDaysInAdvance';
const TYPE_FIELD_NAMES: readonly TypeField[] = [
  'startTime',
  'endTime',
  'weekdays',
  'minDurationMinutes',
  'minDaysInAdvance',
];

export const PERCENT_RANGE = [-100, 1000] as const;
export const MIN_DURATION_RANGE = [1, 10080] as const;
export const MIN_DAYS_RANGE = [1, 3650] as const;
export const MAX_OBJECT_IDS = 1000;

/** As received: anything may be missing or of the wrong kind; null means absent. */
export interface PricingRuleInput {
  name?: unknown;
  type?: unknown;
  percent?: unknown;
  active?: unknown;
  objectIds?: unknown;
  startTime?: unknown;
  endTime?: unknown;
  weekdays?: unknown;
  minDurationMinutes?: unknown;
  minDaysInAdvance?: unknown;
}

const isWholeIn = (value: unknown, [min, max]: readonly [number, number]): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

function checkWeekdays(value: unknown, errors: FieldError[], allowEmpty: boolean): Weekday[] | null {
  if (!Array.isArray(value) || value.some((d) => !isWeekday(d))) {
    errors.push({ field: 'weekdays', message: `must be a list of weekday names (${WEEKDAYS.join(', ')})` });
    return null;
  }
  if (value.length === 0 && !allowEmpty) {
    errors.push({ field: 'weekdays', message: 'must name at least one weekday' });
    return null;
  }
  // Stored in week order, without repeats.
  return value.length ? WEEKDAYS.filter((d) => value.includes(d)) : null;
}

/** A complete rule from `input`, or the field errors that prevent it. */
export function checkPricingRule(
  input: PricingRuleInput,
): { rule: PricingRule; errors: [] } | { rule?: undefined; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ field, message });

  if (!isNonEmptyString(input.name)) fail('name', 'must be a non-empty string of at most 200 characters');
  const type = input.type as PricingRuleType;
  const knownType = PRICING_RULE_TYPES.includes(type);
  if (!knownType) fail('type', `must be one of ${PRICING_RULE_TYPES.join(', ')}`);
  if (!isWholeIn(input.percent, PERCENT_RANGE)) {
    fail('percent', `must be a whole number from ${PERCENT_RANGE[0]} to ${PERCENT_RANGE[1]} (negative for a discount)`);
  }
  if (input.active != null && typeof input.active !== 'boolean') fail('active', 'must be true or false');

  let objectIds: string[] = [];
  if (input.objectIds != null) {
    if (!Array.isArray(input.objectIds) || input.objectIds.length > MAX_OBJECT_IDS || !input.objectIds.every(isUuid)) {
      fail('objectIds', `must be a list of at most ${MAX_OBJECT_IDS} object ids (empty: every object)`);
    } else {
      objectIds = [...new Set(input.objectIds.map((id) => id.toLowerCase()))];
    }
  }

  const rule: PricingRule = {
    name: typeof input.name === 'string' ? input.name.trim() : '',
    type,
    active: input.active == null ? true : input.active === true,
    objectIds,
    percent: input.percent as number,
    startTime: null,
    endTime: null,
    weekdays: null,
    minDurationMinutes: null,
    minDaysInAdvance: null,
  };

  if (knownType) {
    const { required, optional } = TYPE_FIELDS[type];
    const takes = [...required, ...optional] as readonly TypeField[];
    for (const field of TYPE_FIELD_NAMES) {
      if (input[field] != null && !takes.includes(field)) fail(field, `does not apply to a ${type} rule`);
    }
    for (const field of required) {
      if (input[field] == null) fail(field, `is required for a ${type} rule`);
    }
    if (type === 'time_based') {
      if (input.startTime != null && !isHhmm(input.startTime))
        fail('startTime', 'must be a local time HH:MM (00:00–23:59)');
      if (input.endTime != null && !isHhmm(input.endTime, true))
        fail('endTime', 'must be a local time HH:MM (00:00–24:00)');
      if (input.startTime != null && input.startTime === input.endTime) fail('endTime', 'must differ from startTime');
      rule.startTime = input.startTime as string;
      rule.endTime = input.endTime as string;
      if (input.weekdays != null) rule.weekdays = checkWeekdays(input.weekdays, errors, true);
    }
    if (type === 'day_based' && input.weekdays != null) rule.weekdays = checkWeekdays(input.weekdays, errors, false);
    if (type === 'duration_based' && input.minDurationMinutes != null) {
      if (!isWholeIn(input.minDurationMinutes, MIN_DURATION_RANGE)) {
        fail(
          'minDurationMinutes',
          `must be a whole number of minutes from ${MIN_DURATION_RANGE[0]} to ${MIN_DURATION_RANGE[1]}`,
        );
      }
      rule.minDurationMinutes = input.minDurationMinutes as number;
    }
    if (type === 'early_bird' && input.minDaysInAdvance != null) {
      if (!isWholeIn(input.minDaysInAdvance, MIN_DAYS_RANGE)) {
        fail('minDaysInAdvance', `must be a whole number of days from ${MIN_DAYS_RANGE[0]} to ${MIN_DAYS_RANGE[1]}`);
      }
      rule.minDaysInAdvance = input.minDaysInAdvance as number;
    }
  }
  return errors.length ? { errors } : { rule, errors: [] };
}

/** The rule `input` describes (a command of the edge: GraphQL, REST, a catalog file), or the ValidationError naming its fields. */
export function parsePricingRule(input: PricingRuleInput): PricingRule {
  const { rule, errors } = checkPricingRule(input);
  if (!rule) throw invalid(errors);
  return rule;
}

/** The rule fields of a flat argument list (GraphQL/REST) or a catalog file item. */
export function ruleInputOf(args: PricingRuleInput): PricingRuleInput {
  const { name, type, percent, active, objectIds, startTime, endTime, weekdays, minDurationMinutes, minDaysInAdvance } =
    args;
  return { name, type, percent, active, objectIds, startTime, endTime, weekdays, minDurationMinutes, minDaysInAdvance };
}

/**
 * The input that results from applying a partial update to a stored rule: given (non-null) fields
 * replace stored ones; when the type changes, the old type's fields are dropped.
 */
export function mergeRuleUpdate(current: PricingRule, update: PricingRuleInput): PricingRuleInput {
  const typeChanges = update.type != null && update.type !== current.type;
  const base: PricingRuleInput = {
    name: current.name,
    type: current.type,
    percent: current.percent,
    active: current.active,
    objectIds: current.objectIds,
    ...(typeChanges
      ? {}
      : {
          startTime: current.startTime,
          endTime: current.endTime,
          weekdays: current.weekdays,
          minDurationMinutes: current.minDurationMinutes,
          minDaysInAdvance: current.minDaysInAdvance,
        }),
  };
  const given = Object.fromEntries(Object.entries(update).filter(([, value]) => value != null));
  return { ...base, ...given };
}
