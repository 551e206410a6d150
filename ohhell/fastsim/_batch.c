/*
 * ohhell.fastsim._batch -- many games of Oh Hell stepped at once, for learning.
 *
 * The loop over the games of a batch lives here, in C, on NumPy arrays (through the buffer
 * protocol: no NumPy headers are needed to build it), with the GIL released.  Python
 * (ohhell.integrations.batched) owns the arrays and the rules; this file only plays.
 *
 * A batch is
 *   cfg    int64[]      the rules, flattened by ohhell.integrations.batched (layout: CFG_* below);
 *   games  uint8[N, R]  one Game record per game (R = sizeof(Game), record_size());
 *   hist   int8[N, K]   per game, one block per hand of the game: what happened, for the
 *                       perfect-recall observation (K = hand_count * block, block: see HIST_*);
 *   rng    uint64[1]    the state of the batch's random numbers (splitmix64).
 *
 * It plays the rules of ohhell.game for the knobs it accepts (checked in Python): a standard
 * pack, a schedule of hands each with its size and trump rule (a turned card, a turned card
 * where 2-6 mean no trump, none, a fixed suit), in-turn bidding with or without the hook,
 * the first lead, must-trump, any scoring given as a table, a target score that bounces.
 * tests/integrations/test_batched.py checks every action against the engine.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t u64;

#define MAXP 8
#define MAXH 32
#define NCARDS 54

enum { BIDDING = 0, PLAYING = 1, OVER = 2 };

/* The fields every step reads come first (one cache line with the hands of up to 3 seats). */
typedef struct {
    int8_t phase, turn, dealer, first_dealer, leader, led, trump, turn_up;
    int8_t nbids, intrick, tricks_played, hand, size, pad[3];
    int8_t bids[MAXP];         /* -1: not yet */
    int8_t trick[MAXP];        /* the card each seat played to the trick in progress, -1 */
    u64 hands[MAXP];
    int8_t tricks_won[MAXP];
    int32_t totals[MAXP];
} Game;                        /* the cards played, trick by trick, are in the history */

/* cfg layout */
enum {
    CFG_PLAYERS, CFG_HANDS, CFG_LARGEST, CFG_HOOK, CFG_MUST_TRUMP, CFG_LEAD_OFFSET, CFG_DECK, CFG_TARGET,
    CFG_BID_BASE, CFG_ACTIONS,
    /* observation offsets (-1: segment absent) */
    OB_SIZE, OB_HAND, OB_BLIND, OB_VISIBLE, OB_PHASE, OB_HAND_SIZE, OB_PROGRESS, OB_DEALER, OB_TRUMP, OB_TURN_UP,
    OB_BIDDERS, OB_HAS_BID, OB_BIDS, OB_FORBIDDEN, OB_TRICKS_WON, OB_CARDS_LEFT, OB_ACTING, OB_TRICK_LEADER,
    OB_CURRENT_TRICK, OB_LED_SUIT, OB_PLAYED, OB_TOTALS, OB_HISTORY, OB_PROGRESS_HANDS,
    CFG_FIXED   /* then: sizes[HANDS], trumps[HANDS], scores[(LARGEST+1)^3] */
};

/* trump rules of a hand */
enum { T_TURN_UP = 0, T_TURN_UP_LOW_NONE = 1, T_NONE = 2, T_SUIT = 3 /* + suit */ };

typedef struct {
    int n, hands, largest, hook, must_trump, lead_offset, target, bid_base, actions;
    u64 deck;
    int deck_cards[NCARDS], deck_size;
    const int64_t *sizes, *trumps, *scores;
    const int64_t *ob;
    int hist_block;
} Cfg;

static const u64 SUIT_MASK[4] = {0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39};

static inline int popcount(u64 m) { return __builtin_popcountll(m); }
static inline int low_card(u64 m) { return __builtin_ctzll(m); }

/* SPREAD[b]: the 8 bits of b as 8 bytes of 0 or 1 (little-endian), to write mask rows fast. */
static u64 SPREAD[256];

static void init_spread(void) {
    for (int b = 0; b < 256; b++) {
        u64 v = 0;
        for (int k = 0; k < 8; k++) if (b >> k & 1) v |= 1ULL << (8 * k);
        SPREAD[b] = v;
    }
}

static inline u64 rng_next(u64 *s) {
    u64 z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int rng_below(u64 *s, int n) {
    return (int)(((rng_next(s) >> 32) * (u64)n) >> 32);
}

static inline int nth_card(u64 m, int k) {
    while (k-- > 0) m &= m - 1;
    return low_card(m);
}

/* --------------------------------------------------------------------- history */

/* A hand's block in hist: bids[n], cards[H][n], leader[H], winner[H], trump, turn_up, size, dealer. */
static inline int8_t *block(const Cfg *c, int8_t *hist, int hand) { return hist + hand * c->hist_block; }
#define HB_BIDS 0
#define HB_CARDS(c) ((c)->n)
#define HB_LEADER(c) ((c)->n + (c)->largest * (c)->n)
#define HB_WINNER(c) (HB_LEADER(c) + (c)->largest)
#define HB_TRUMP(c) (HB_WINNER(c) + (c)->largest)
#define HB_TURN_UP(c) (HB_TRUMP(c) + 1)

/* ---------------------------------------------------------------------- rules */

static inline int score_of(const Cfg *c, int size, int bid, int tricks) {
    int w = c->largest + 1;
    return (int)c->scores[(size * w + bid) * w + tricks];
}

static inline int forbidden_bid(const Cfg *c, const Game *g) {
    /* The bid the hook forbids the dealer while the dealer is to bid (-1: none). */
    if (!c->hook || g->phase != BIDDING || g->turn != g->dealer) return -1;
    int others = 0;
    for (int s = 0; s < c->n; s++) if (s != g->dealer && g->bids[s] >= 0) others += g->bids[s];
    int f = g->size - others;
    return (f >= 0 && f <= g->size) ? f : -1;
}

static inline u64 legal_cards(const Cfg *c, const Game *g) {
    u64 hand = g->hands[g->turn];
    if (g->intrick == 0) return hand;
    u64 follow = hand & SUIT_MASK[g->led];
    if (follow) return follow;
    if (c->must_trump && g->trump >= 0) {
        u64 trumps = hand & SUIT_MASK[g->trump];
        if (trumps) return trumps;
    }
    return hand;
}

/* Deal hand g->hand from a pack (card ids, top first); pack may be NULL: shuffle with rng. */
static void deal_hand(const Cfg *c, Game *g, int8_t *hist, const int64_t *pack, u64 *rng) {
    int n = c->n, size = (int)c->sizes[g->hand], rule = (int)c->trumps[g->hand];
    int cards[NCARDS];
    int dealt = n * size;
    int needed = dealt + 1 < c->deck_size ? dealt + 1 : c->deck_size;
    if (pack) {
        for (int i = 0; i < needed; i++) cards[i] = (int)pack[i];
    } else {
        memcpy(cards, c->deck_cards, sizeof(int) * c->deck_size);
        for (int i = 0; i < needed; i++) {   /* a partial Fisher-Yates: only the cards dealt */
            int j = i + rng_below(rng, c->deck_size - i);
            int t = cards[i]; cards[i] = cards[j]; cards[j] = t;
        }
    }
    g->dealer = (int8_t)((g->first_dealer + g->hand) % n);
    memset(g->hands, 0, sizeof(g->hands));
    for (int i = 0; i < dealt; i++) g->hands[(g->dealer + 1 + i) % n] |= 1ULL << cards[i];
    g->turn_up = -1;
    g->trump = -1;
    if (rule == T_TURN_UP || rule == T_TURN_UP_LOW_NONE) {
        if (c->deck_size > dealt) {
            int card = cards[dealt];
            g->turn_up = (int8_t)card;
            g->trump = (rule == T_TURN_UP_LOW_NONE && card % 13 <= 4) ? -1 : (int8_t)(card / 13);
        }
    } else if (rule >= T_SUIT) {
        g->trump = (int8_t)(rule - T_SUIT);
    }
    g->size = (int8_t)size;
    memset(g->bids, -1, sizeof(g->bids));
    memset(g->trick, -1, sizeof(g->trick));
    memset(g->tricks_won, 0, sizeof(g->tricks_won));
    g->nbids = 0; g->intrick = 0; g->tricks_played = 0; g->led = -1;
    g->phase = BIDDING;
    g->turn = (int8_t)((g->dealer + 1) % n);
    g->leader = g->turn;
    if (hist) {
        int8_t *b = block(c, hist, g->hand);
        memset(b, -1, c->hist_block);
        b[HB_TRUMP(c)] = g->trump;
        b[HB_TURN_UP(c)] = g->turn_up;
    }
}

static void new_game(const Cfg *c, Game *g, int8_t *hist, int dealer, const int64_t *pack, u64 *rng) {
    memset(g, 0, sizeof(Game));
    if (hist) memset(hist, -1, (size_t)c->hands * c->hist_block);
    g->first_dealer = (int8_t)dealer;
    g->hand = 0;
    deal_hand(c, g, hist, pack, rng);
}

/* Apply one legal action; returns 1 when it ended a hand (rewards: the hand's scores). */
static int apply_action(const Cfg *c, Game *g, int8_t *hist, int action, float *rewards, u64 *rng) {
    int n = c->n;
    if (g->phase == BIDDING) {
        int bid = action - c->bid_base;
        g->bids[g->turn] = (int8_t)bid;
        if (hist) block(c, hist, g->hand)[HB_BIDS + g->turn] = (int8_t)bid;
        g->nbids++;
        if (g->nbids == n) {
            g->phase = PLAYING;
            g->leader = g->turn = (int8_t)((g->dealer + c->lead_offset) % n);
        } else {
            g->turn = (int8_t)((g->turn + 1) % n);
        }
        return 0;
    }
    int seat = g->turn, card = action;
    g->hands[seat] &= ~(1ULL << card);
    g->trick[seat] = (int8_t)card;
    if (g->intrick == 0) { g->led = (int8_t)(card / 13); g->leader = (int8_t)seat; }
    if (hist) {
        int8_t *b = block(c, hist, g->hand);
        b[HB_CARDS(c) + g->tricks_played * n + seat] = (int8_t)card;
        b[HB_LEADER(c) + g->tricks_played] = g->leader;
    }
    g->intrick++;
    if (g->intrick < n) {
        g->turn = (int8_t)((seat + 1) % n);
        return 0;
    }
    /* the trick is complete */
    int best = -1, winner = g->leader;
    for (int k = 0; k < n; k++) {
        int s = (g->leader + k) % n, x = g->trick[s], p;
        if (x / 13 == g->trump) p = 200 + x % 13;
        else if (x / 13 == g->led) p = 100 + x % 13;
        else p = 0;
        if (p > best) { best = p; winner = s; }
    }
    if (hist) block(c, hist, g->hand)[HB_WINNER(c) + g->tricks_played] = (int8_t)winner;
    g->tricks_won[winner]++;
    g->tricks_played++;
    memset(g->trick, -1, sizeof(g->trick));
    g->intrick = 0;
    g->led = -1;
    g->leader = g->turn = (int8_t)winner;
    if (g->tricks_played < g->size) return 0;
    /* the hand is over: score it */
    int reached = 0;
    for (int s = 0; s < n; s++) {
        int score = score_of(c, g->size, g->bids[s], g->tricks_won[s]);
        int total = g->totals[s] + score;
        if (c->target > 0 && total > c->target) total = c->target - (total - c->target);
        if (rewards) rewards[s] = (float)score;
        g->totals[s] = total;
        if (c->target > 0 && total == c->target) reached = 1;
    }
    if (g->hand + 1 >= c->hands || reached) {
        g->phase = OVER;
        g->hand++;
        return 1;
    }
    g->hand++;
    deal_hand(c, g, hist, NULL, rng);
    return 1;
}

static inline int is_legal(const Cfg *c, const Game *g, long long action) {
    if (g->phase == BIDDING) {
        long long bid = action - c->bid_base;
        return bid >= 0 && bid <= g->size && bid != forbidden_bid(c, g);
    }
    if (g->phase == PLAYING) return action >= 0 && action < 52 && ((legal_cards(c, g) >> action) & 1);
    return 1;
}

/* -------------------------------------------------------------------- buffers */

typedef struct { Py_buffer view; int held; } Buf;

static int get_buf(PyObject *obj, Buf *b, int writable, Py_ssize_t itemsize, Py_ssize_t min_len, const char *what) {
    b->held = 0;
    if (PyObject_GetBuffer(obj, &b->view, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) < 0)  /* contiguous */
        return -1;
    b->held = 1;
    if (b->view.itemsize != itemsize || b->view.len < min_len * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: expected a contiguous array of %zd-byte items, at least %zd of them",
                     what, itemsize, min_len);
        return -1;
    }
    return 0;
}

static void release(Buf *b) { if (b->held) { PyBuffer_Release(&b->view); b->held = 0; } }

static int parse_cfg(PyObject *obj, Cfg *c, Buf *buf) {
    if (get_buf(obj, buf, 0, 8, CFG_FIXED, "cfg") < 0) return -1;
    const int64_t *v = (const int64_t *)buf->view.buf;
    Py_ssize_t len = buf->view.len / 8;
    c->n = (int)v[CFG_PLAYERS]; c->hands = (int)v[CFG_HANDS]; c->largest = (int)v[CFG_LARGEST];
    c->hook = (int)v[CFG_HOOK]; c->must_trump = (int)v[CFG_MUST_TRUMP]; c->lead_offset = (int)v[CFG_LEAD_OFFSET];
    c->deck = (u64)v[CFG_DECK]; c->target = (int)v[CFG_TARGET]; c->bid_base = (int)v[CFG_BID_BASE];
    c->actions = (int)v[CFG_ACTIONS];
    c->ob = v;
    int w = c->largest + 1;
    if (c->n < 2 || c->n > MAXP || c->hands < 1 || c->largest < 1 || c->largest >= MAXH
        || len < CFG_FIXED + 2 * c->hands + (Py_ssize_t)w * w * w) {
        PyErr_SetString(PyExc_ValueError, "cfg: bad rules");
        return -1;
    }
    c->sizes = v + CFG_FIXED;
    c->trumps = v + CFG_FIXED + c->hands;
    c->scores = v + CFG_FIXED + 2 * c->hands;
    c->deck_size = 0;
    for (u64 m = c->deck; m; m &= m - 1) c->deck_cards[c->deck_size++] = low_card(m);
    c->hist_block = c->n + c->largest * c->n + 2 * c->largest + 2;
    return 0;
}

/* ------------------------------------------------------------------ functions */

PyDoc_STRVAR(record_size_doc, "record_size() -> int\n\nBytes of one game record.");

static PyObject *py_record_size(PyObject *self, PyObject *args) {
    return PyLong_FromSsize_t((Py_ssize_t)sizeof(Game));
}

PyDoc_STRVAR(hist_block_doc, "hist_block(cfg) -> int\n\nBytes of one hand's block of history.");

static PyObject *py_hist_block(PyObject *self, PyObject *args) {
    PyObject *cfg_obj;
    if (!PyArg_ParseTuple(args, "O", &cfg_obj)) return NULL;
    Cfg c; Buf cb;
    if (parse_cfg(cfg_obj, &c, &cb) < 0) { release(&cb); return NULL; }
    release(&cb);
    return PyLong_FromLong(c.hist_block);
}

PyDoc_STRVAR(reset_doc,
"reset(cfg, games, hist, rng, which, dealers, packs) -> None\n\n"
"Start new games in the rows where ``which`` (uint8[N] or None: all) is set: the first dealer\n"
"from ``dealers`` (int64[N], or None: at random), the first hand dealt from ``packs``\n"
"(int64[N, deck], top card first, or None: shuffled).");

static PyObject *py_reset(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *games_obj, *hist_obj, *rng_obj, *which_obj, *dealers_obj, *packs_obj;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &cfg_obj, &games_obj, &hist_obj, &rng_obj, &which_obj, &dealers_obj,
                          &packs_obj)) return NULL;
    Cfg c; Buf cb = {0}, gb = {0}, hb = {0}, rb = {0}, wb = {0}, db = {0}, pb = {0};
    PyObject *result = NULL;
    if (parse_cfg(cfg_obj, &c, &cb) < 0) goto done;
    if (get_buf(games_obj, &gb, 1, 1, sizeof(Game), "games") < 0) goto done;
    Py_ssize_t count = gb.view.len / (Py_ssize_t)sizeof(Game);
    if (get_buf(hist_obj, &hb, 1, 1, count * c.hands * c.hist_block, "hist") < 0) goto done;
    if (get_buf(rng_obj, &rb, 1, 8, 1, "rng") < 0) goto done;
    if (which_obj != Py_None && get_buf(which_obj, &wb, 0, 1, count, "which") < 0) goto done;
    if (dealers_obj != Py_None && get_buf(dealers_obj, &db, 0, 8, count, "dealers") < 0) goto done;
    if (packs_obj != Py_None && get_buf(packs_obj, &pb, 0, 8, count * c.deck_size, "packs") < 0) goto done;
    Game *games = (Game *)gb.view.buf;
    int8_t *hist = (int8_t *)hb.view.buf;
    u64 *rng = (u64 *)rb.view.buf;
    const uint8_t *which = wb.held ? (const uint8_t *)wb.view.buf : NULL;
    const int64_t *dealers = db.held ? (const int64_t *)db.view.buf : NULL;
    const int64_t *packs = pb.held ? (const int64_t *)pb.view.buf : NULL;
    if (dealers) for (Py_ssize_t i = 0; i < count; i++) {
        if ((!which || which[i]) && (dealers[i] < 0 || dealers[i] >= c.n)) {
            PyErr_Format(PyExc_ValueError, "game %zd: there is no seat %lld to deal", i, (long long)dealers[i]);
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count; i++) {
        if (which && !which[i]) continue;
        int dealer = dealers ? (int)dealers[i] : rng_below(rng, c.n);
        new_game(&c, &games[i], hist + i * c.hands * c.hist_block, dealer, packs ? packs + i * c.deck_size : NULL,
                 rng);
    }
    Py_END_ALLOW_THREADS
    result = Py_None; Py_INCREF(result);
done:
    release(&cb); release(&gb); release(&hb); release(&rb); release(&wb); release(&db); release(&pb);
    return result;
}

PyDoc_STRVAR(legal_mask_doc,
"legal_mask(cfg, games, out) -> None\n\nWrite each game's legal actions into ``out`` (bool/uint8[N, actions]).");

static PyObject *py_legal_mask(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *games_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OOO", &cfg_obj, &games_obj, &out_obj)) return NULL;
    Cfg c; Buf cb = {0}, gb = {0}, ob = {0};
    PyObject *result = NULL;
    if (parse_cfg(cfg_obj, &c, &cb) < 0) goto done;
    if (get_buf(games_obj, &gb, 0, 1, sizeof(Game), "games") < 0) goto done;
    Py_ssize_t count = gb.view.len / (Py_ssize_t)sizeof(Game);
    if (get_buf(out_obj, &ob, 1, 1, count * c.actions, "out") < 0) goto done;
    const Game *games = (const Game *)gb.view.buf;
    uint8_t *out = (uint8_t *)ob.view.buf;
    int actions = c.actions;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count; i++) {
        const Game *g = &games[i];
        uint8_t *row = out + i * actions;
        if (g->phase == PLAYING) {
            u64 m = legal_cards(&c, g);
            for (int k = 0; k < 7; k++) {   /* bytes 0..55: the cards, then zeros */
                u64 v = SPREAD[(m >> (8 * k)) & 0xFF];
                memcpy(row + 8 * k, &v, 8);
            }
            memset(row + 56, 0, actions - 56);
        } else {
            memset(row, 0, actions);
            if (g->phase == BIDDING) {
                memset(row + c.bid_base, 1, g->size + 1);
                int f = forbidden_bid(&c, g);
                if (f >= 0) row[c.bid_base + f] = 0;
            }
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_None; Py_INCREF(result);
done:
    release(&cb); release(&gb); release(&ob);
    return result;
}

PyDoc_STRVAR(sample_doc,
"sample(cfg, games, rng, out) -> None\n\n"
"A uniformly random legal action for every game into ``out`` (int64[N]; 0 for a game that is over).");

static PyObject *py_sample(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *games_obj, *rng_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OOOO", &cfg_obj, &games_obj, &rng_obj, &out_obj)) return NULL;
    Cfg c; Buf cb = {0}, gb = {0}, rb = {0}, ob = {0};
    PyObject *result = NULL;
    if (parse_cfg(cfg_obj, &c, &cb) < 0) goto done;
    if (get_buf(games_obj, &gb, 0, 1, sizeof(Game), "games") < 0) goto done;
    Py_ssize_t count = gb.view.len / (Py_ssize_t)sizeof(Game);
    if (get_buf(rng_obj, &rb, 1, 8, 1, "rng") < 0) goto done;
    if (get_buf(out_obj, &ob, 1, 8, count, "out") < 0) goto done;
    const Game *games = (const Game *)gb.view.buf;
    u64 *rng = (u64 *)rb.view.buf;
    int64_t *out = (int64_t *)ob.view.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count; i++) {
        const Game *g = &games[i];
        if (g->phase == BIDDING) {
            int f = forbidden_bid(&c, g);
            int choices = g->size + 1 - (f >= 0 ? 1 : 0);
            int b = rng_below(rng, choices);
            if (f >= 0 && b >= f) b++;
            out[i] = c.bid_base + b;
        } else if (g->phase == PLAYING) {
            u64 m = legal_cards(&c, g);
            out[i] = nth_card(m, rng_below(rng, popcount(m)));
        } else {
            out[i] = 0;
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_None; Py_INCREF(result);
done:
    release(&cb); release(&gb); release(&rb); release(&ob);
    return result;
}

PyDoc_STRVAR(step_doc,
"step(cfg, games, hist, rng, actions, rewards, which=None) -> int\n\n"
"Apply one action per game still playing (games that are over, and those not in ``which``\n"
"(uint8[N]) when given, are left alone); ``rewards``\n"
"(float32[N, players]) receives each seat's score in the games whose hand ended.  Returns the\n"
"number of games still playing; -1 when every game was over, -2 - i when the action of game i\n"
"is illegal (in both cases no game is changed).");

static PyObject *py_step(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *games_obj, *hist_obj, *rng_obj, *actions_obj, *rewards_obj, *which_obj = Py_None;
    if (!PyArg_ParseTuple(args, "OOOOOO|O", &cfg_obj, &games_obj, &hist_obj, &rng_obj, &actions_obj, &rewards_obj,
                          &which_obj))
        return NULL;
    Cfg c; Buf cb = {0}, gb = {0}, hb = {0}, rb = {0}, ab = {0}, wb = {0}, sb = {0};
    PyObject *result = NULL;
    if (parse_cfg(cfg_obj, &c, &cb) < 0) goto done;
    if (get_buf(games_obj, &gb, 1, 1, sizeof(Game), "games") < 0) goto done;
    Py_ssize_t count = gb.view.len / (Py_ssize_t)sizeof(Game);
    if (get_buf(hist_obj, &hb, 1, 1, count * c.hands * c.hist_block, "hist") < 0) goto done;
    if (get_buf(rng_obj, &rb, 1, 8, 1, "rng") < 0) goto done;
    if (get_buf(actions_obj, &ab, 0, 8, count, "actions") < 0) goto done;
    if (get_buf(rewards_obj, &wb, 1, 4, count * c.n, "rewards") < 0) goto done;
    if (which_obj != Py_None && get_buf(which_obj, &sb, 0, 1, count, "which") < 0) goto done;
    const uint8_t *which = sb.held ? (const uint8_t *)sb.view.buf : NULL;
    Game *games = (Game *)gb.view.buf;
    int8_t *hist = (int8_t *)hb.view.buf;
    u64 *rng = (u64 *)rb.view.buf;
    const int64_t *actions = (const int64_t *)ab.view.buf;
    float *rewards = (float *)wb.view.buf;
    Py_ssize_t bad = -2, live = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count; i++) {
        if (games[i].phase == OVER || (which && !which[i])) continue;
        if (!is_legal(&c, &games[i], (long long)actions[i])) { bad = i; break; }
        bad = -1;   /* a game still playing */
    }
    if (bad == -1) {
        memset(rewards, 0, sizeof(float) * (size_t)count * c.n);
        for (Py_ssize_t i = 0; i < count; i++) {
            Game *g = &games[i];
            if (g->phase == OVER) continue;
            if (!which || which[i])
                apply_action(&c, g, hist + i * c.hands * c.hist_block, (int)actions[i], rewards + i * c.n, rng);
            live += g->phase != OVER;
        }
    }
    Py_END_ALLOW_THREADS
    /* >= 0: the games still playing; -1: every game was over; <= -2: game -result-2 is illegal */
    result = PyLong_FromSsize_t(bad == -1 ? live : (bad == -2 ? -1 : -bad - 2));
done:
    release(&cb); release(&gb); release(&hb); release(&rb); release(&ab); release(&wb); release(&sb);
    return result;
}

/* ------------------------------------------------------------- observations */

static void encode(const Cfg *c, const Game *g, const int8_t *hist, int me, double total_scale, float *out) {
    const int64_t *ob = c->ob;
    int n = c->n, largest = c->largest, B = largest + 1;
    memset(out, 0, sizeof(float) * (size_t)ob[OB_SIZE]);
    int over = g->phase == OVER;
#define REL(s) ((((s) - me) % n + n) % n)
    if (!over) for (u64 m = g->hands[me]; m; m &= m - 1) out[ob[OB_HAND] + low_card(m)] = 1.0f;
    out[ob[OB_PHASE] + (over ? 3 : g->phase)] = 1.0f;
    out[ob[OB_HAND_SIZE]] = over ? 0.0f : (float)g->size / (float)largest;
    double progress = (double)g->hand / (double)ob[OB_PROGRESS_HANDS];
    out[ob[OB_PROGRESS]] = (float)(progress < 1.0 ? progress : 1.0);
    out[ob[OB_DEALER] + REL(g->dealer)] = 1.0f;
    if (!over) {
        out[ob[OB_TRUMP] + (g->trump >= 0 ? g->trump : 5)] = 1.0f;
        if (g->turn_up >= 0) out[ob[OB_TURN_UP] + g->turn_up] = 1.0f;
        for (int s = 0; s < n; s++) out[ob[OB_BIDDERS] + s] = 1.0f;
    }
    for (int s = 0; s < n; s++) {
        int r = REL(s);
        if (!over && g->bids[s] >= 0) {
            out[ob[OB_HAS_BID] + r] = 1.0f;
            out[ob[OB_BIDS] + r * B + g->bids[s]] = 1.0f;
        }
        if (!over) {
            out[ob[OB_TRICKS_WON] + r] = (float)g->tricks_won[s] / (float)largest;
            out[ob[OB_CARDS_LEFT] + r] = (float)popcount(g->hands[s]) / (float)largest;
        }
        double t = g->totals[s] / total_scale;
        out[ob[OB_TOTALS] + r] = (float)(t < -1.0 ? -1.0 : (t > 1.0 ? 1.0 : t));
    }
    if (me == g->dealer && !over) {
        /* what the view shows the dealer: the hook's bid while bidding and until the opening lead */
        int f = -1;
        if (c->hook && ((g->phase == BIDDING && g->turn == g->dealer)
                        || (g->phase == PLAYING && g->tricks_played == 0 && g->intrick == 0))) {
            int others = 0;
            for (int s = 0; s < n; s++) if (s != g->dealer && g->bids[s] >= 0) others += g->bids[s];
            f = g->size - others;
            if (f < 0 || f > g->size) f = -1;
        }
        if (f >= 0) out[ob[OB_FORBIDDEN] + f] = 1.0f;
    }
    if (!over) {
        out[ob[OB_ACTING] + REL(g->turn)] = 1.0f;
        if (g->phase == PLAYING) {
            out[ob[OB_TRICK_LEADER] + REL(g->intrick ? g->leader : g->turn)] = 1.0f;
            for (int s = 0; s < n; s++)
                if (g->trick[s] >= 0) out[ob[OB_CURRENT_TRICK] + REL(s) * NCARDS + g->trick[s]] = 1.0f;
            if (g->intrick) out[ob[OB_LED_SUIT] + g->led] = 1.0f;
            const int8_t *cards = hist + g->hand * c->hist_block + HB_CARDS(c);
            for (int k = 0; k < g->tricks_played * n; k++)
                out[ob[OB_PLAYED] + REL(k % n) * NCARDS + cards[k]] = 1.0f;
        }
    }
    if (ob[OB_HISTORY] >= 0 && hist) {
        /* per hand: bids (n x B), cards (H x n x C), leaders (H x n), winners (H x n), trump (6), turn-up (C) */
        int per_hand = n * B + largest * n * NCARDS + 2 * largest * n + 6 + NCARDS;
        int hands_seen = over ? g->hand : g->hand + 1;
        for (int h = 0; h < hands_seen && h < c->hands; h++) {
            const int8_t *b = hist + h * c->hist_block;
            float *o = out + ob[OB_HISTORY] + h * per_hand;
            for (int s = 0; s < n; s++) {
                int bid = b[HB_BIDS + s];
                if (bid >= 0) o[REL(s) * B + bid] = 1.0f;
            }
            o += n * B;
            for (int t = 0; t < largest; t++) {
                for (int s = 0; s < n; s++) {
                    int card = b[HB_CARDS(c) + t * n + s];
                    if (card >= 0) o[(t * n + REL(s)) * NCARDS + card] = 1.0f;
                }
            }
            o += largest * n * NCARDS;
            for (int t = 0; t < largest; t++) {
                int leader = b[HB_LEADER(c) + t];
                if (leader >= 0) o[t * n + REL(leader)] = 1.0f;
            }
            o += largest * n;
            for (int t = 0; t < largest; t++) {
                int winner = b[HB_WINNER(c) + t];
                if (winner >= 0) o[t * n + REL(winner)] = 1.0f;
            }
            o += largest * n;
            int trump = b[HB_TRUMP(c)], turn_up = b[HB_TURN_UP(c)];
            o[trump >= 0 ? trump : 5] = 1.0f;
            o += 6;
            if (turn_up >= 0) o[turn_up] = 1.0f;
        }
    }
#undef REL
}

PyDoc_STRVAR(observe_doc,
"observe(cfg, games, hist, seats, total_scale, out) -> None\n\n"
"Each game's observation from the seat in ``seats`` (int64[N]; -1: the seat to act) into\n"
"``out`` (float32[N, size]), in the layout of ohhell.integrations.encoding.");

static PyObject *py_observe(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *games_obj, *hist_obj, *seats_obj, *out_obj;
    double scale;
    if (!PyArg_ParseTuple(args, "OOOOdO", &cfg_obj, &games_obj, &hist_obj, &seats_obj, &scale, &out_obj))
        return NULL;
    Cfg c; Buf cb = {0}, gb = {0}, hb = {0}, sb = {0}, ob = {0};
    PyObject *result = NULL;
    if (parse_cfg(cfg_obj, &c, &cb) < 0) goto done;
    if (get_buf(games_obj, &gb, 0, 1, sizeof(Game), "games") < 0) goto done;
    Py_ssize_t count = gb.view.len / (Py_ssize_t)sizeof(Game);
    if (get_buf(hist_obj, &hb, 0, 1, count * c.hands * c.hist_block, "hist") < 0) goto done;
    if (seats_obj != Py_None && get_buf(seats_obj, &sb, 0, 8, count, "seats") < 0) goto done;
    Py_ssize_t size = (Py_ssize_t)c.ob[OB_SIZE];
    if (get_buf(out_obj, &ob, 1, 4, count * size, "out") < 0) goto done;
    const Game *games = (const Game *)gb.view.buf;
    const int8_t *hist = (const int8_t *)hb.view.buf;
    const int64_t *seats = sb.held ? (const int64_t *)sb.view.buf : NULL;
    float *out = (float *)ob.view.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count; i++) {
        const Game *g = &games[i];
        int me = seats && seats[i] >= 0 ? (int)seats[i] : g->turn;
        encode(&c, g, hist + i * c.hands * c.hist_block, me, scale, out + i * size);
    }
    Py_END_ALLOW_THREADS
    result = Py_None; Py_INCREF(result);
done:
    release(&cb); release(&gb); release(&hb); release(&sb); release(&ob);
    return result;
}

PyDoc_STRVAR(play_random_doc,
"play_random(cfg, games, hist, rng, steps) -> int\n\n"
"Step every game ``steps`` times with uniformly random legal actions (games that are over\n"
"are left alone); returns how many hands ended.  The random-play loop of the benchmark.");

static PyObject *py_play_random(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *games_obj, *hist_obj, *rng_obj;
    long steps;
    if (!PyArg_ParseTuple(args, "OOOOl", &cfg_obj, &games_obj, &hist_obj, &rng_obj, &steps)) return NULL;
    Cfg c; Buf cb = {0}, gb = {0}, hb = {0}, rb = {0};
    PyObject *result = NULL;
    if (parse_cfg(cfg_obj, &c, &cb) < 0) goto done;
    if (get_buf(games_obj, &gb, 1, 1, sizeof(Game), "games") < 0) goto done;
    Py_ssize_t count = gb.view.len / (Py_ssize_t)sizeof(Game);
    if (get_buf(hist_obj, &hb, 1, 1, count * c.hands * c.hist_block, "hist") < 0) goto done;
    if (get_buf(rng_obj, &rb, 1, 8, 1, "rng") < 0) goto done;
    Game *games = (Game *)gb.view.buf;
    int8_t *hist = (int8_t *)hb.view.buf;
    u64 *rng = (u64 *)rb.view.buf;
    long long ended = 0;
    Py_BEGIN_ALLOW_THREADS  /* a game over is skipped: it costs one test per step */
    for (long k = 0; k < steps; k++) {
        for (Py_ssize_t i = 0; i < count; i++) {
            Game *g = &games[i];
            int action;
            if (g->phase == BIDDING) {
                int f = forbidden_bid(&c, g);
                int b = rng_below(rng, g->size + 1 - (f >= 0 ? 1 : 0));
                if (f >= 0 && b >= f) b++;
                action = c.bid_base + b;
            } else if (g->phase == PLAYING) {
                u64 m = legal_cards(&c, g);
                action = nth_card(m, rng_below(rng, popcount(m)));
            } else {
                continue;
            }
            ended += apply_action(&c, g, hist + i * c.hands * c.hist_block, action, NULL, rng);
        }
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromLongLong(ended);
done:
    release(&cb); release(&gb); release(&hb); release(&rb);
    return result;
}

static PyMethodDef methods[] = {
    {"record_size", py_record_size, METH_NOARGS, record_size_doc},
    {"hist_block", py_hist_block, METH_VARARGS, hist_block_doc},
    {"reset", py_reset, METH_VARARGS, reset_doc},
    {"legal_mask", py_legal_mask, METH_VARARGS, legal_mask_doc},
    {"sample", py_sample, METH_VARARGS, sample_doc},
    {"step", py_step, METH_VARARGS, step_doc},
    {"observe", py_observe, METH_VARARGS, observe_doc},
    {"play_random", py_play_random, METH_VARARGS, play_random_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_batch", "Many games of Oh Hell stepped at once on NumPy arrays (see _batch.c).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__batch(void) {
    init_spread();
    return PyModule_Create(&module);
}
