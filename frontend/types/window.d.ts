// What the front end's modules add to `window` (for TypeScript's checker only; `make lint`).

interface Window {
  // Safari before 14.1.
  webkitAudioContext?: typeof AudioContext;
  // For the browser tests (tests/frontend): the game page's hooks, and the table's motion count.
  __tpGame?: {
    drop: () => void;
    view: () => GameView;
    socketPath: () => string;
    patience: (ms: number) => void;
  };
  __tpMotion?: Record<string, number>;
}

// HTML's focus option, which TypeScript's DOM types do not know yet (Chromium 135+, Firefox 104+):
// focus without the focus ring until a key is used (table.js, a page's first focus).
interface FocusOptions {
  focusVisible?: boolean;
}
