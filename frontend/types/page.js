// The front end's own shapes, as JSDoc types for TypeScript's checker (`make lint`), by the module
// that makes or takes them; and its classes under their names. Like game.js a script, not a
// module, so the names are global to the checked modules, and outside static/ (never downloaded).

/**
 * @typedef {import('../static/frontend/js/socket.js').LiveSocket} LiveSocket
 * @typedef {import('../static/frontend/js/protocol.js').MoveQueue} MoveQueue
 */

// api.js

/** @typedef {{detail?: string, code?: string, errors?: Record<string, unknown>, game?: GameView, [key: string]: unknown}} ErrorBody */

// A layout's outline as the picker gets it (GET /api/layouts?form=outline).
/** @typedef {{name: string, title: string, size: number, slots: [number, number, number][]}} Outline */

// charts.js

/**
 * A finished run as GET /api/me/history and me/stats `recent` list it.
 * @typedef {object} Run
 * @property {boolean} ranked
 * @property {boolean} won
 * @property {number} time_ms
 * @property {number} moves
 * @property {number} cards_left
 * @property {string} finished_at ISO
 * @property {string} [mode]
 * @property {string | null} [day]
 */

// dialog.js

/**
 * @typedef {object} DialogButton
 * @property {string} label
 * @property {() => void} run
 * @property {boolean} [primary]
 * @property {string} [key] aria-keyshortcuts
 * @property {string} [id] its data-testid
 */

// geometry.js

/**
 * @typedef {{x: number, y: number, z: number}} SlotPlace a slot in half-card units
 * @typedef {{minX: number, minY: number, cols: number, rows: number}} Bounds
 * @typedef {{left: number, top: number}} Box
 * @typedef {object} Fit
 * @property {'below' | 'beside'} mode
 * @property {number} cardW
 * @property {number} cardH
 * @property {number} width
 * @property {number} height
 * @property {{left: number, top: number, z: number}[]} cards by position
 * @property {Box} stock
 * @property {Box} waste
 * @property {{left: number, top: number, size: number}} undo
 */

// nav.js

/**
 * @typedef {number | 'stock'} PlaceId a layout position or the stock
 * @typedef {{id: PlaceId, x: number, y: number}} Place
 */

// pages/arenas.js, pages/arena.js

/**
 * @typedef {{win: number, fire_win: number, fire_after: number, grace_seconds: number}} ArenaScoring
 * @typedef {{id: string, name: string, rules: string, layout: string, starts_at: string,
 *   ends_at: string, state: 'scheduled'|'running'|'finishing'|'finished', final: boolean,
 *   players: number|null}} ArenaSummary
 * @typedef {{server_time: string, scoring: ArenaScoring, running: ArenaSummary[],
 *   upcoming: ArenaSummary[], finished: ArenaSummary[]}} ArenaLists
 * @typedef {{rank: number, player: {username: string, display_name: string}, points: number,
 *   wins: number, games: number, streak: number, best_streak: number, fire: boolean,
 *   active: boolean}} ArenaLine
 * @typedef {{version: number, total: number, lines: ArenaLine[]}} ArenaStandings
 * @typedef {{game: string, won: boolean, points: number}} ArenaReplay a finished game, to replay
 * @typedef {Record<string, ArenaReplay[]> | null} ArenaReplays by username: an ended arena's
 *   games, to its players (else null)
 * @typedef {ArenaSummary & {server_time: string, scoring: ArenaScoring, version: number,
 *   standings: ArenaStandings, podium: ArenaLine[]|null, me?: ArenaLine|null,
 *   replays?: ArenaReplays}} Arena
 * @typedef {Arena & {type: 'arena' | 'standings'}} ArenaFrame the arena socket's: the watcher's
 *   own arena (`arena`, with `me`), or everyone's after a change (`standings`, without)
 */

// pages/boards.js

/**
 * @typedef {{username: string, display_name: string}} Player
 * @typedef {{rank: number | null, player: Player, won: boolean, cards_left: number, time_ms: number, moves: number, score: number}} DealLine
 * @typedef {{lines?: DealLine[], me?: DealLine | null}} DealPage a daily or numbered board
 * @typedef {{rank: number, player: Player, value: number, played: number, won: number}} AlltimeLine
 * @typedef {{lines?: AlltimeLine[], me?: AlltimeLine | null}} AlltimePage
 * @typedef {{username?: string} | null} Viewer who is looking (their line is marked)
 */

// pages/play/controls.js

/**
 * @typedef {'left' | 'right' | 'up' | 'down'} Direction
 * @typedef {{act: Action} | {move: Direction} | {play: number} | {newDeal: true} | null} Command
 */

/**
 * @typedef {object} Commands
 * @property {(action: Action) => void} act
 * @property {(position: number) => void} playCard
 * @property {() => void} newDeal
 * @property {(dir: Direction) => void} move the table's focus
 * @property {() => number | 'stock' | null} focusId
 * @property {() => GameView} view
 */

// pages/play/dialogs.js

/**
 * @typedef {object} DialogGame what the dialogs act on
 * @property {() => GameView} view
 * @property {(action: Action) => void} act through the page's checks
 * @property {(action: Action) => void} push straight to the move queue
 * @property {() => void} focusTable
 * @property {(body: DealRequest) => Promise<void>} startDeal
 * @property {AppContext} ctx
 * @property {Layout} layout
 */

// pages/play/feedback.js

/**
 * @typedef {object} Feedback
 * @property {'draw' | 'play' | 'undo' | null} sound
 * @property {string | null} say for the screen reader's live region (null: nothing new)
 * @property {number | 'stock' | null | undefined} glow the hinted place; null: none; undefined: no hint asked
 */

// pages/play/game.js

/**
 *
 * @typedef {object} GameParts
 * @property {HTMLElement} root the game screen
 * @property {AppContext} ctx
 * @property {Layout} layout the table's
 * @property {GameView} view the first view
 * @property {import('../static/frontend/js/table.js').Table} table
 * @property {import('../static/frontend/js/protocol.js').MoveQueue} queue
 * @property {import('../static/frontend/js/pages/play/clock.js').GameClock} clock
 * @property {import('../static/frontend/js/pages/play/new_deal.js').NewDealRequest} newDeal
 * @property {() => import('../static/frontend/js/socket.js').LiveSocket} socket
 * @property {() => ReturnType<typeof import('../static/frontend/js/pages/play/dialogs.js').gameDialogs>} dialogs
 */

// pages/play/moves.js

/**
 * @typedef {{busy: boolean, starting: boolean}} QueueState the move queue: moves in flight or queued, a new deal awaited
 * @typedef {{kind: 'send'}
 *   | {kind: 'ignore'}
 *   | {kind: 'refuse', shake: number | 'stock' | null, say: string}
 *   | {kind: 'ask', first: 'hint' | 'restart'}} Verdict
 */

// pages/races.js, pages/race.js

/**
 * A player in a race as the server tells it: counts, never cards.
 * @typedef {object} RacePlayer
 * @property {string} username
 * @property {string} name
 * @property {string} status waiting, playing, stuck, won, finished, resigned or left
 * @property {number | null} cards_left
 * @property {number | null} stock_left
 * @property {number | null} streak
 * @property {number | null} moves
 * @property {number | null} time_ms
 * @property {number | null} seq
 * @property {number | null} place
 * @property {{before: number, after: number | null, change: number | null, held?: boolean} | null} rating held: the change waits for staff
 * @property {boolean} [claimable] the server would take a claim of the win over them now
 * @property {number | null} [claimable_in_s] seconds until it would at the soonest (null: never)
 * @property {string | null} [game] their game, once the race is over (its players' replays)
 */
/**
 * A race (GET /api/races/{id}, the race socket's frames).
 * @typedef {object} Race
 * @property {string} id
 * @property {string} code
 * @property {'open' | 'countdown' | 'running' | 'finished'} state
 * @property {string} host
 * @property {number} seats
 * @property {{key: string}} rules
 * @property {string} layout the layout's name
 * @property {boolean} public
 * @property {number} cap_s
 * @property {number} [absent_s] how long a racer may be silent before the others may claim the win
 * @property {string | null} starts_at
 * @property {string | null} ends_at
 * @property {string | null} finished_at
 * @property {string} server_time
 * @property {number} version
 * @property {string | null} rematch
 * @property {string | null} game the viewer's own game in the race
 * @property {RacePlayer[]} players
 */
/**
 * One player's progress after a move; `version` is the race's the server has shown this socket.
 * @typedef {{type: 'progress', version: number, player: Pick<RacePlayer, 'username' | 'status' | 'cards_left' | 'stock_left' | 'streak' | 'moves' | 'time_ms' | 'seq'>}} ProgressFrame
 * @typedef {{type: 'race', race: Race}} RaceFrame the whole race, after every change
 * @typedef {{state: 'idle' | 'waiting' | 'matched', race?: string, empty?: boolean}} QueueAnswer the quick match's queue
 */

// pages/stats.js

/**
 * @typedef {Stats & {played: number, average_win_ms: number | null, daily_won: number, best_daily_streak: number}} FullStats
 */

// sound.js

/** @typedef {'play' | 'draw' | 'undo' | 'shake' | 'win' | 'stuck'} SoundName */
