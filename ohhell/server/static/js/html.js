// The rendering library, in one place: Preact (a 5 KB virtual DOM that patches only what
// changed) with htm (JSX-like tagged templates, so there is no build step). Both are vendored
// as ES modules in ./vendor (versions and licenses in ./vendor/README.md).
import { h, render, Fragment, createRef } from "./vendor/preact.mjs";
import htm from "./vendor/htm.mjs";

export { h, render, Fragment, createRef };
export { useState, useEffect, useLayoutEffect, useRef, useMemo, useCallback, useReducer } from "./vendor/hooks.mjs";

/** `html\`<div class=${x}>…</div>\`` builds Preact elements. */
export const html = htm.bind(h);

/**
 * Whether two values draw the same: the same value, or arrays, Sets and plain objects whose
 * items do, `depth` levels down (a trick's [seat, card] pairs, a seat's place). A new array
 * with the same cards is the same picture; a new object of another kind (a function) is not.
 */
export function samePicture(a, b, depth = 2) {
  if (Object.is(a, b)) return true;
  if (depth <= 0 || !a || !b || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => samePicture(item, b[i], depth - 1));
  if (a instanceof Set) return b instanceof Set && a.size === b.size && [...a].every((item) => b.has(item));
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && samePicture(a[key], b[key], depth - 1));
}

/** Whether two props objects draw the same (each prop compared with `samePicture`). */
export function sameProps(a, b) {
  return samePicture(a, b, 3);
}

/**
 * `component`, drawn again only when its props changed (`same(old, new)` false; by default
 * `sameProps`), as preact/compat's memo: a table update then patches only the
 * seats, the hand and the trick whose picture changed (chessground's render.ts does the same).
 */
export function memo(component, same = sameProps) {
  function Memo(props) {
    this.shouldComponentUpdate = (next) => !same(this.props, next);
    return h(component, props);
  }
  Memo.displayName = `Memo(${component.displayName || component.name})`;
  return Memo;
}
