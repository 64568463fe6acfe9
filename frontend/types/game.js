// The shapes the front end works with, as JSDoc types for TypeScript's checker (`make lint`):
// the game view the server sends (tripeaks/play/payloads.py, tripeaks/engine/view.py), the moves
// and messages of the game socket, layouts, and what the app gives every page. A script, not a
// module (no import or export), so its types are global to the checked modules (jsconfig.json),
// and outside static/: the browser never downloads it.

/**
 * @typedef {'playing' | 'stuck' | 'won' | 'lost'} GameStatus
 * @typedef {'daily' | 'random' | 'numbered' | 'custom'} DealMode
 */

/**
 * A rule set: King and Ace connect (`wrap`), the peaks dealt face up (`open`).
 * @typedef {object} Rules
 * @property {string} key
 * @property {boolean} wrap
 * @property {boolean} open
 * @property {string} [start]
 */

/**
 * One place of the layout as the player may see it (`card` is null while face down or paused).
 * @typedef {object} PositionView
 * @property {number} position
 * @property {string | null} card a token such as "KS", "TD"
 * @property {boolean} face_up
 * @property {boolean} free
 * @property {boolean} removed
 */

/**
 * Where the finished run stands on its board.
 * @typedef {object} BoardPlace
 * @property {number} rank
 * @property {number} lines
 * @property {string} [board]
 */

/**
 * A line the results dialog announces (a new best, a streak).
 * @typedef {object} Announcement
 * @property {string} text
 */

/**
 * The player's overall statistics (ranked deals), as GET /api/me/stats `overall`.
 * @typedef {object} Stats
 * @property {number} won
 * @property {number} lost
 * @property {number | null} win_rate
 * @property {number} current_streak
 * @property {number} best_streak
 * @property {number} daily_streak
 * @property {number | null} best_win_ms
 */

/**
 * What a finished game came to (only in a finished game's view).
 * @typedef {object} GameResult
 * @property {BoardPlace | null} [board]
 * @property {boolean} [held]
 * @property {boolean} [ranked]
 * @property {Announcement[]} [announcements]
 * @property {Stats} [stats]
 */

/**
 * The game as its player may see it: every server message carries the whole of it.
 * @typedef {object} GameView
 * @property {string} id
 * @property {DealMode} mode
 * @property {string} layout the layout's name
 * @property {Rules} rules
 * @property {string | null} day
 * @property {number | null} number
 * @property {GameStatus} status
 * @property {number} seq
 * @property {number} moves
 * @property {number} score
 * @property {number} elapsed_ms
 * @property {boolean} clock_running
 * @property {string} server_time
 * @property {boolean} paused
 * @property {boolean} assisted a hint was taken: the run is not ranked
 * @property {number} hints
 * @property {boolean} contest a race's or an arena's game: no undo, start again, hint, pause or new deal
 * @property {'first-try' | 'practice' | 'unranked' | string} ranking
 * @property {string} ranking_reason
 * @property {boolean} ranks whether the server will rank this run (issue 38)
 * @property {'first-try' | 'practice' | 'guest' | 'hint' | 'answer_seen' | 'custom' | 'contest' | 'held' | 'flagged' | 'excluded' | string} ranking_code why it ranks or not
 * @property {string | null} started_at
 * @property {string | null} finished_at
 * @property {string | null} waste the waste's top card, null before the first draw or when paused
 * @property {number} waste_count
 * @property {number} stock_left
 * @property {number} cards_left
 * @property {PositionView[]} positions
 * @property {number[]} playable
 * @property {boolean} can_undo
 * @property {{winnable: boolean | null, par: number | null}} [deal] once the game is over
 * @property {GameResult} [result] once the game is over
 * @property {Hint} [hint] a REST answer to a hint
 * @property {boolean} [replayed] a REST answer to a move sent again
 */

/**
 * A move as the page sends it; `seq` is the view's it was made on (MoveQueue adds it).
 * @typedef {'play' | 'draw' | 'undo' | 'hint' | 'restart' | 'pause' | 'resume' | 'resign'} Action
 * @typedef {{action: Action, position?: number}} Move
 * @typedef {{seq: number, action: Action, position?: number}} SentMove
 */

/**
 * The solver's advice: `move` null when no move helps (or none was found in time: certain false).
 * @typedef {object} Hint
 * @property {{action: 'play', position: number} | {action: 'draw'} | null} move
 * @property {boolean | null} [winnable]
 * @property {boolean} [certain]
 * @property {boolean} [fewest_draws]
 */

/**
 * What the server sends on the game socket (and what a REST answer is turned into).
 * @typedef {{type: 'view', game: GameView, hint?: Hint, replayed?: boolean}} ViewMessage
 * @typedef {{type: 'started', game: GameView}} StartedMessage
 * @typedef {{type: 'error', code: string, detail?: string, game?: GameView, retry_after?: number}} ErrorMessage
 * @typedef {ViewMessage | StartedMessage | ErrorMessage} ServerMessage
 */

/**
 * What came with a view: the hint asked for, a replayed answer, a resync, a new deal started.
 * @typedef {object} ViewExtra
 * @property {Hint} [hint]
 * @property {boolean} [replayed]
 * @property {boolean} [resynced]
 * @property {boolean} [started]
 */

/**
 * A new deal as the page asks for it (POST /api/games, or "new" on the socket).
 * @typedef {object} DealRequest
 * @property {DealMode} mode
 * @property {string | {wrap: boolean, open: boolean}} [rules] a key or a rule set
 * @property {string} [layout]
 * @property {number} [number]
 * @property {string} [deal]
 */

/**
 * A layout's slot in half-card units; a higher z lies on top.
 * @typedef {object} Slot
 * @property {number} position
 * @property {number} x
 * @property {number} y
 * @property {number} z
 * @property {number[]} [covered_by]
 */

/**
 * @typedef {object} Layout
 * @property {string} name
 * @property {string} title
 * @property {number} size
 * @property {Slot[]} slots
 */

/**
 * A point on the page, in px.
 * @typedef {{left: number, top: number}} Point
 */

/**
 * Who is signed in, from the page's boot data.
 * @typedef {{username: string, public_name: string}} User
 */

/**
 * What the app gives every page (app.js).
 * @typedef {object} AppContext
 * @property {User | null} user
 * @property {boolean} hasGame
 * @property {() => void} cycleTheme
 * @property {() => GameView | null} takeGame the game just started, once
 * @property {() => string} layoutName
 * @property {() => string} layoutTitle
 * @property {(body: DealRequest) => Promise<void>} startGame
 * @property {(game: GameView) => void} openGame
 * @property {(text: string) => void} notice
 * @property {(words: (left: number) => string, seconds: number) => void} noticeWait a refusal counted down
 * @property {() => Promise<boolean>} becomeGuest play as a guest (false when refused)
 * @property {() => Promise<{layouts: Layout[]}>} layouts
 */

/**
 * A page's mount: fills `root`, returns its cleanup (or null).
 * @typedef {(root: HTMLElement, ctx: AppContext, params: string[]) => Promise<(() => void) | null>} Mount
 */
