/** A text field of a submitted form: its value, or `fallback` when the form has no such field (or it holds a file). */
export function formText(form: FormData, name: string, fallback = ''): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : fallback;
}
