import { spawnSync } from 'node:child_process';

// The naming rules `promtool check metrics` applies (Prometheus's promlint), written out so the
// tests check them on any machine, with Portier's own on top (every name starts with portier_).
// docs/operations.md, "Metrics", lists the names. When promtool is installed, the tests run it too.

export interface Family {
  name: string;
  type: string | undefined;
  help: string | undefined;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
/** Units that have a base unit (promlint's list): seconds, bytes, meters, ratios. */
const NON_BASE_UNITS: Record<string, string> = {
  nanoseconds: 'seconds',
  microseconds: 'seconds',
  milliseconds: 'seconds',
  minutes: 'seconds',
  hours: 'seconds',
  days: 'seconds',
  weeks: 'seconds',
  kilobytes: 'bytes',
  megabytes: 'bytes',
  gigabytes: 'bytes',
  kibibytes: 'bytes',
  mebibytes: 'bytes',
  gibibytes: 'bytes',
  millimeters: 'meters',
  centimeters: 'meters',
  kilometers: 'meters',
  percent: 'ratio',
};
/** Abbreviated units promlint refuses, as whole name parts. */
const ABBREVIATED_UNITS = new Set(['s', 'ms', 'us', 'ns', 'sec', 'secs', 'b', 'kb', 'mb', 'gb', 'tb', 'pb']);
const TYPE_WORDS = ['counter', 'gauge', 'histogram', 'summary'];

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const pattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/y;
  let at = 0;
  while (at < text.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) throw new Error(`unparsable labels: {${text}}`);
    labels[match[1]] = match[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    at = pattern.lastIndex;
  }
  return labels;
}

/** Parses Prometheus text exposition format 0.0.4 into families (a sample belongs to the family it extends). */
export function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string) => {
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, type: undefined, help: undefined, samples: [] }));
    return f;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (meta) {
      if (meta[1] === 'HELP') family(meta[2]).help = meta[3] ?? '';
      else family(meta[2]).type = meta[3];
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = /^([^{\s]+)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/.exec(line);
    if (!sample) throw new Error(`unparsable sample line: ${line}`);
    const [, name, labelText, raw] = sample;
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : /^nan$/i.test(raw) ? NaN : Number(raw);
    if (Number.isNaN(value) && !/^nan$/i.test(raw)) throw new Error(`sample value is not a number: ${line}`);
    const base = [...families.keys()].find(
      (f) =>
        name === f ||
        ((families.get(f)?.type === 'histogram' || families.get(f)?.type === 'summary') &&
          [`${f}_bucket`, `${f}_sum`, `${f}_count`].includes(name)),
    );
    family(base ?? name).samples.push({ name, labels: parseLabels(labelText ?? ''), value });
  }
  return families;
}

/** What breaks the naming rules, one line per problem ("name: problem"); empty when clean. */
export function lintExposition(text: string, options: { prefix?: string } = {}): string[] {
  const problems: string[] = [];
  const problem = (name: string, text: string) => problems.push(`${name}: ${text}`);
  for (const f of parseExposition(text).values()) {
    const { name, type } = f;
    if (!METRIC_NAME.test(name)) problem(name, 'not a valid metric name');
    if (name.includes(':')) problem(name, 'metric names should not contain ":" (kept for recording rules)');
    if (/[A-Z]/.test(name)) problem(name, "metric names should be written in 'snake_case' not 'camelCase'");
    if (options.prefix && !name.startsWith(options.prefix)) problem(name, `does not start with ${options.prefix}`);
    if (f.help === undefined || f.help.trim() === '') problem(name, 'no help text');
    if (type === undefined) problem(name, 'no TYPE line');
    else if (!TYPES.has(type)) problem(name, `unknown type "${type}"`);
    if (type === 'counter' && !name.endsWith('_total')) problem(name, 'counter metrics should have "_total" suffix');
    if (type !== 'counter' && name.endsWith('_total'))
      problem(name, 'non-counter metrics should not have "_total" suffix');
    if (type !== 'histogram' && type !== 'summary') {
      for (const suffix of ['_bucket', '_count', '_sum'])
        if (name.endsWith(suffix))
          problem(name, `non-histogram and non-summary metrics should not have "${suffix}" suffix`);
    }
    const parts = name.split('_');
    for (const part of parts) {
      if (NON_BASE_UNITS[part]) problem(name, `use base unit "${NON_BASE_UNITS[part]}" instead of "${part}"`);
      if (ABBREVIATED_UNITS.has(part)) problem(name, `metric names should not contain abbreviated units ("${part}")`);
      if (TYPE_WORDS.includes(part)) problem(name, `metric name should not include type '${part}'`);
    }
    if (f.samples.length === 0 && type !== 'histogram' && type !== 'summary') continue;
    for (const sample of f.samples) {
      for (const label of Object.keys(sample.labels)) {
        if (!LABEL_NAME.test(label) || label.startsWith('__')) problem(name, `invalid label name "${label}"`);
        if (/[A-Z]/.test(label))
          problem(name, `label names should be written in 'snake_case' not 'camelCase' ("${label}")`);
        if (label === 'le' && !(type === 'histogram' && sample.name.endsWith('_bucket')))
          problem(name, 'metric name should not include "le" label');
        if (label === 'quantile' && type !== 'summary')
          problem(name, 'metric name should not include "quantile" label');
      }
      if (type === 'histogram' && sample.name.endsWith('_bucket') && sample.labels.le === undefined)
        problem(name, 'histogram bucket without "le"');
      if (type === 'counter' && sample.value < 0) problem(name, 'counter with a negative value');
    }
  }
  return [...new Set(problems)];
}

/** Whether `promtool` is on PATH (Debian: apt-get install prometheus). */
export function promtoolAvailable(): boolean {
  return spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** `promtool check metrics` on the text: its exit status and what it printed. */
export function promtoolCheck(text: string): { status: number | null; output: string } {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}
