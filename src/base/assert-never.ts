/**
 * The end of an exhaustive `switch` over a closed union: the compiler rejects the call when a member is not
 * handled (its argument is then not `never`), and at run time a value outside the union throws.
 */
export function assertNever(x: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(x)}`);
}
