// The game review's shapes (issue 39): what GET /api/games/{id}/replay and .../analysis send
// (docs/api.md, REVIEW_CONTRACT), and the review page's own (pages/review.js, pages/review/). A
// script like game.js and page.js: its names are global to the checked modules, and it is outside
// static/ (never downloaded).

/**
 * @typedef {'winnable' | 'lost' | 'unknown'} ReviewVerdict
 * @typedef {number | 'draw'} LineToken a position played, or a draw (engine/solver.line_tokens)
 * @typedef {'play' | 'draw' | 'undo' | 'restart'} ReplayAction
 */

/**
 * One engine move of the game, as logged.
 * @typedef {object} ReplayMove
 * @property {number} seq
 * @property {ReplayAction} action
 * @property {number | null} position
 * @property {number} elapsed_ms
 */

/**
 * One position of the game as its player saw it (engine/view.player_view).
 * @typedef {object} ReplayPosition
 * @property {GameStatus} status
 * @property {number} seq
 * @property {number} moves
 * @property {string | null} waste
 * @property {number} waste_count
 * @property {number} stock_left
 * @property {number} cards_left
 * @property {PositionView[]} positions
 * @property {number[]} playable
 * @property {boolean} can_undo
 * @property {boolean} [paused]
 */

/**
 * @typedef {object} ReplayDeal
 * @property {'daily' | 'random' | 'numbered' | 'custom' | string} source
 * @property {string} layout
 * @property {string} rules_key
 * @property {number | null} number
 * @property {string | null} day
 * @property {string} label
 */

/**
 * @typedef {object} ReplayGame
 * @property {string} id
 * @property {{name: string}} player
 * @property {GameStatus} status
 * @property {number} score
 * @property {number} moves
 * @property {number} elapsed_ms
 * @property {string} finished_at
 * @property {ReplayDeal} deal
 * @property {boolean} [own] the viewer's own game (may share it)
 */

/**
 * @typedef {object} ReplayPayload
 * @property {ReplayGame} game
 * @property {Rules} rules
 * @property {Layout} layout
 * @property {ReplayMove[]} moves
 * @property {ReplayPosition[]} positions len(moves) + 1
 */

/**
 * @typedef {object} AnalysisPayload
 * @property {'ready'} state
 * @property {ReviewVerdict[]} verdicts len(moves) + 1: the deal, then after each move
 * @property {number | null} losing_move 1-based: the move that turned a winnable position lost
 * @property {LineToken[] | null} winning_line from the position before the losing move (null: hidden)
 * @property {number | null} par
 * @property {LineToken[] | null} par_line null: hidden
 * @property {number | null} over_par
 * @property {number | null} shorter_from
 * @property {number} budget_nodes
 * @property {boolean} [lines_hidden] a numbered deal's lines kept back until the viewer reveals them
 */

/**
 * A finished game as GET /api/me/games lists it.
 * @typedef {object} RecentGame
 * @property {string} id
 * @property {ReplayDeal} deal
 * @property {string} layout
 * @property {GameStatus} status
 * @property {number} score
 * @property {number} moves
 * @property {number} elapsed_ms
 * @property {string} finished_at
 * @property {{state: 'ready' | 'later' | 'pending' | 'none', losing_move: boolean}} review the analysis: its state, and whether it names a losing move
 */
