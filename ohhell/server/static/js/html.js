// The rendering library, in one place: Preact (a 5 KB virtual DOM that patches only what
// changed) with htm (JSX-like tagged templates, so there is no build step). Both are vendored
// as ES modules in ./vendor (versions and licenses in ./vendor/README.md).
import { h, render, Fragment, createRef } from "./vendor/preact.mjs";
import htm from "./vendor/htm.mjs";

export { h, render, Fragment, createRef };
export { useState, useEffect, useLayoutEffect, useRef, useMemo, useCallback, useReducer } from "./vendor/hooks.mjs";

/** `html\`<div class=${x}>…</div>\`` builds Preact elements. */
export const html = htm.bind(h);
