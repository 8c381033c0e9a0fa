// The fetch orval's generated functions call (its `override.mutator`): the generated code knows
// paths only, so this adds the server's base URL, the bearer credential and the pinned
// Portier-Version, and answers
// { data, status, headers } as orval's fetch client expects.
let settings = { baseUrl: '', token: '', version: '' };

export function configure(next: { baseUrl: string; token: string; version: string }): void {
  settings = next;
}

export async function portierFetch<T>(url: string, init: RequestInit): Promise<T> {
  const headers = new Headers(init.headers);
  if (settings.token && !headers.has('authorization')) headers.set('authorization', `Bearer ${settings.token}`);
  if (settings.version) headers.set('portier-version', settings.version);
  const res = await fetch(settings.baseUrl + url, { ...init, headers });
  const text = [204, 205, 304].includes(res.status) ? '' : await res.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  // orval types each operation's answer as a union over its documented statuses; this object is one of them.
  return { data, status: res.status, headers: res.headers } as T;
}
