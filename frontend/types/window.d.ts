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
