/*
 * ohhell.fastsim._core -- the fast simulation core of the bots.
 *
 * One hand of Oh Hell played on 64-bit card masks: legal moves, tricks,
 * random and heuristic playouts, an exact open-hand (max^n) solver for the
 * endgame, a sampler of hidden hands, and a trick estimator used for bids.
 *
 * Cards are the engine's integers (suit * 13 + rank, jokers 52 and 53 form
 * suit 4 of two equal cards).  The core covers every rule except the
 * high-low jokers of NE-England Blackout: following suit, must-trump, any
 * trump mask (a suit, or the single joker that is trump when a joker is
 * turned up) and "own-suit" jokers (a led joker wins unless trumped; of two
 * jokers the first played wins).  A card's power in a trick is 200 + rank
 * for a trump, 100 + rank for the led suit and 0 otherwise; a card takes the
 * lead only with a strictly greater power, exactly as ohhell.game does.
 *
 * Python passes plain tuples and ints; each call does a whole batch of work
 * (all worlds of one decision), so the call overhead does not matter.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

typedef uint64_t u64;

#define MAXP 10          /* seats (7 for real games; the scorekeeper's 10 never reaches here) */
#define MAXS 32          /* entries of a score row: tricks 0 .. 31 */
#define MAXW 4096        /* worlds per call */

static const u64 SUIT_MASK[5] = {
    0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39, 3ULL << 52,
};

static inline int suit_of(int card) { return card / 13; }
static inline int rank_of(int card) { return card >= 52 ? 13 : card % 13; }
static inline int low_card(u64 mask) { return __builtin_ctzll(mask); }
static inline int high_card(u64 mask) { return 63 - __builtin_clzll(mask); }
static inline int popcount(u64 mask) { return __builtin_popcountll(mask); }

/* ------------------------------------------------------------------ random */

typedef struct { u64 s; } Rng;

static inline u64 rng_next(Rng *rng) {   /* splitmix64 */
    u64 z = (rng->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int rng_below(Rng *rng, int n) {
    return (int)(((rng_next(rng) >> 11) * (double)n) / 9007199254740992.0);
}

static inline double rng_unit(Rng *rng) {
    return (double)(rng_next(rng) >> 11) / 9007199254740992.0;
}

static int nth_card(u64 mask, int k) {
    while (k-- > 0) mask &= mask - 1;
    return low_card(mask);
}

/* ------------------------------------------------------------ the rules */

typedef struct {
    int n;              /* players */
    int size;           /* cards dealt to each */
    int must_trump;
    u64 trump;          /* the trump cards */
    int bid[MAXP];      /* -1: the seat did not bid (plays for tricks) */
    double score[MAXP][MAXS];   /* score[seat][tricks]: the seat's value of a final trick count */
    int me;             /* the seat searching: epsilon-random play never applies to it */
    int omniscient;     /* the heuristic sees every hand (else only what a player could know) */
    double eps[MAXP];   /* the chance that a seat plays a random card (an opponent model) */
    int policy_opponents;   /* in the search tree, the other seats play the heuristic's card */
} Cfg;

typedef struct {
    u64 hands[MAXP];
    u64 gone;           /* cards of completed tricks */
    int tricks[MAXP];
    int leader, count, turn, remaining;
    int led, best_seat, best_power;
    int trick[MAXP];    /* the cards of the trick in progress, in the order played */
} Pos;

static inline int power(const Cfg *cfg, int led, int card) {
    if (cfg->trump >> card & 1) return 200 + rank_of(card);
    if (suit_of(card) == led) return 100 + rank_of(card);
    return 0;
}

static inline u64 legal_for(const Cfg *cfg, u64 hand, int leading, int led) {
    if (leading) return hand;
    u64 follow = hand & SUIT_MASK[led];
    if (follow) return follow;
    if (cfg->must_trump) {
        u64 trumps = hand & cfg->trump;
        if (trumps) return trumps;
    }
    return hand;
}

static inline u64 legal(const Cfg *cfg, const Pos *pos) {
    return legal_for(cfg, pos->hands[pos->turn], pos->count == 0, pos->led);
}

static inline void apply_card(const Cfg *cfg, Pos *pos, int card) {
    int seat = pos->turn;
    pos->hands[seat] &= ~(1ULL << card);
    pos->trick[pos->count] = card;
    if (pos->count == 0) {
        pos->led = suit_of(card);
        pos->best_power = power(cfg, pos->led, card);
        pos->best_seat = seat;
    } else {
        int p = power(cfg, pos->led, card);
        if (p > pos->best_power) { pos->best_power = p; pos->best_seat = seat; }
    }
    pos->count++;
    if (pos->count == cfg->n) {
        for (int i = 0; i < cfg->n; i++) pos->gone |= 1ULL << pos->trick[i];
        pos->tricks[pos->best_seat]++;
        pos->leader = pos->turn = pos->best_seat;
        pos->count = 0;
        pos->remaining--;
    } else {
        pos->turn = (seat + 1) % cfg->n;
    }
}

/* The highest power a seat can reach with a legal card of ``mask`` when ``led`` was led. */
static inline int max_power(const Cfg *cfg, u64 mask, int led) {
    u64 t = mask & cfg->trump;
    if (t) return 200 + rank_of(high_card(t));
    u64 l = mask & SUIT_MASK[led];
    if (l) return 100 + rank_of(high_card(l));
    return 0;
}

/* Can some seat still to play to this trick beat ``to_beat`` (the trick led with ``led``)?
 * Open-handed, this looks at the hands of the seats still to play.  Otherwise it reasons as
 * a player would, from the cards it cannot see (every other seat's cards, mixed together):
 * a higher card of the led suit is out, or a trump is out while the led suit is nearly
 * gone (someone is likely void). */
static int later_can_beat(const Cfg *cfg, const Pos *pos, int after, int led, int to_beat) {
    int seat = pos->turn;
    if (cfg->omniscient) {
        for (int k = 1; k <= after; k++) {
            int other = (seat + k) % cfg->n;
            u64 l = legal_for(cfg, pos->hands[other], 0, led);
            if (max_power(cfg, l, led) > to_beat) return 1;
        }
        return 0;
    }
    if (after <= 0) return 0;
    u64 out = 0;
    for (int i = 0; i < cfg->n; i++) if (i != seat) out |= pos->hands[i];
    u64 in_suit = out & SUIT_MASK[led];
    if (max_power(cfg, in_suit, led) > to_beat) return 1;
    u64 trumps = out & cfg->trump;
    if (trumps && !(cfg->trump & SUIT_MASK[led]) && max_power(cfg, trumps, led) > to_beat
        && popcount(in_suit) <= after) return 1;
    return 0;
}

/* How many more tricks the seat wants: the best final count reachable, by its score row
 * (ties go to the fewest tricks; a seat that did not bid wants them all). */
static int tricks_wanted(const Cfg *cfg, const Pos *pos, int seat) {
    int w = pos->tricks[seat], r = pos->remaining;
    int best = w;
    double best_value = cfg->score[seat][w];
    for (int t = w + 1; t <= w + r && t < MAXS; t++) {
        if (cfg->score[seat][t] > best_value) { best_value = cfg->score[seat][t]; best = t; }
    }
    return best - w;
}

/* Order key of a card when it is to be kept cheap: trumps last, then by rank. */
static inline int cheap_key(const Cfg *cfg, int card) {
    return ((cfg->trump >> card & 1) ? 100 : 0) + rank_of(card);
}

/* The open-hand heuristic: take the tricks the seat needs, duck the others. */
static int heuristic_choose(const Cfg *cfg, const Pos *pos) {
    int seat = pos->turn;
    u64 moves = legal(cfg, pos);
    if (!(moves & (moves - 1))) return low_card(moves);
    int need = tricks_wanted(cfg, pos, seat);
    int after = cfg->n - pos->count - 1;
    int best = -1, best_key = 0;
    u64 m;
    if (pos->count == 0) {
        if (need > 0) {
            /* Lead the cheapest card nobody can beat. */
            for (m = moves; m; m &= m - 1) {
                int c = low_card(m);
                int led = suit_of(c);
                if (later_can_beat(cfg, pos, cfg->n - 1, led, power(cfg, led, c))) continue;
                int key = cheap_key(cfg, c);
                if (best < 0 || key < best_key) { best = c; best_key = key; }
            }
            if (best >= 0) return best;
            if (need >= pos->remaining) {
                /* Every trick is needed: lead the strongest card. */
                for (m = moves; m; m &= m - 1) {
                    int c = low_card(m);
                    int key = cheap_key(cfg, c);
                    if (best < 0 || key > best_key) { best = c; best_key = key; }
                }
                return best;
            }
        }
        /* Lead low, from a plain suit where another seat is likely to go over. */
        for (m = moves; m; m &= m - 1) {
            int c = low_card(m);
            int key = cheap_key(cfg, c) * 2;
            int led = suit_of(c);
            if (!later_can_beat(cfg, pos, cfg->n - 1, led, power(cfg, led, c))) key += 60;
            if (best < 0 || key < best_key) { best = c; best_key = key; }
        }
        return best;
    }
    if (need > 0) {
        /* The cheapest card that wins whatever the others play. */
        int strongest = -1, strongest_power = -1;
        for (m = moves; m; m &= m - 1) {
            int c = low_card(m);
            int p = power(cfg, pos->led, c);
            if (p <= pos->best_power) continue;
            if (p > strongest_power) { strongest = c; strongest_power = p; }
            if (after && later_can_beat(cfg, pos, after, pos->led, p)) continue;
            int key = p;
            if (best < 0 || key < best_key) { best = c; best_key = key; }
        }
        if (best >= 0) return best;
        if (strongest >= 0 && need >= pos->remaining) return strongest;
        /* Cannot win it for sure: throw the cheapest card. */
        for (m = moves; m; m &= m - 1) {
            int c = low_card(m);
            int key = cheap_key(cfg, c);
            if (best < 0 || key < best_key) { best = c; best_key = key; }
        }
        return best;
    }
    /* Duck: the highest card that loses; else one a later seat can beat; else win high. */
    for (m = moves; m; m &= m - 1) {
        int c = low_card(m);
        if (power(cfg, pos->led, c) >= pos->best_power) continue;
        int key = cheap_key(cfg, c);
        if (best < 0 || key > best_key) { best = c; best_key = key; }
    }
    if (best >= 0) return best;
    for (m = moves; m; m &= m - 1) {
        int c = low_card(m);
        int p = power(cfg, pos->led, c);
        if (!(after && later_can_beat(cfg, pos, after, pos->led, p))) continue;
        if (best < 0 || p < best_key) { best = c; best_key = p; }
    }
    if (best >= 0) return best;
    for (m = moves; m; m &= m - 1) {
        int c = low_card(m);
        int p = power(cfg, pos->led, c);
        if (best < 0 || p > best_key) { best = c; best_key = p; }
    }
    return best;
}

/* Policies: 0 uniformly random, 1 heuristic (with probability epsilon a random card). */
static void playout(const Cfg *cfg, Pos *pos, int policy, double epsilon, Rng *rng) {
    while (pos->remaining > 0) {
        int card;
        double e = pos->turn == cfg->me ? cfg->eps[pos->turn] : (cfg->eps[pos->turn] > epsilon ? cfg->eps[pos->turn] : epsilon);
        if (policy == 0 || (e > 0 && rng_unit(rng) < e)) {
            u64 moves = legal(cfg, pos);
            card = nth_card(moves, rng_below(rng, popcount(moves)));
        } else {
            card = heuristic_choose(cfg, pos);
        }
        apply_card(cfg, pos, card);
    }
}

/* ------------------------------------------------------- exact solver */

static long solver_nodes;

/* max^n: every seat plays to maximise its own score row; ties keep the lowest card. */
static void maxn(const Cfg *cfg, const Pos *pos, int *out) {
    if (pos->remaining == 0) {
        memcpy(out, pos->tricks, sizeof(int) * cfg->n);
        return;
    }
    solver_nodes++;
    int seat = pos->turn;
    u64 moves = legal(cfg, pos);
    if (pos->remaining == 1) {
        /* One card each: no choice left. */
        Pos child = *pos;
        while (child.remaining) apply_card(cfg, &child, low_card(child.hands[child.turn]));
        memcpy(out, child.tricks, sizeof(int) * cfg->n);
        return;
    }
    /* Cards next to each other in rank, with nothing left between them, are equivalent. */
    u64 live = pos->hands[seat];
    for (int i = 0; i < pos->count; i++) live |= 1ULL << pos->trick[i];
    for (int i = 0; i < cfg->n; i++) live |= pos->hands[i];
    double best_value = -1e300;
    int result[MAXP];
    int last = -10;
    for (u64 m = moves; m; m &= m - 1) {
        int c = low_card(m);
        if (last >= 0 && suit_of(last) == suit_of(c) && !((cfg->trump >> last & 1) ^ (cfg->trump >> c & 1))) {
            u64 between = ((1ULL << c) - 1) & ~((1ULL << (last + 1)) - 1);
            if (!(between & live & ~pos->hands[seat])) { last = c; continue; }
        }
        last = c;
        Pos child = *pos;
        apply_card(cfg, &child, c);
        maxn(cfg, &child, result);
        double v = cfg->score[seat][result[seat]];
        if (v > best_value) {
            best_value = v;
            memcpy(out, result, sizeof(int) * cfg->n);
        }
    }
}

/* ------------------------------------------------------ trick estimate */

/* Expected tricks of a hand before the bidding: a sum of per-card chances from how many
 * higher cards are out, the suit's length, the trumps held and how much of the pack is
 * dealt.  ``unseen``: the cards that may be in the other hands. */
static double estimate_tricks(u64 hand, u64 trump, u64 unseen, int n, int size) {
    int unseen_count = popcount(unseen);
    double frac = unseen_count > 0 ? (double)((n - 1) * size) / unseen_count : 0.0;
    if (frac > 1.0) frac = 1.0;
    int trumps = popcount(hand & trump);
    double total = 0.0;
    for (int s = 0; s < 5; s++) {
        u64 mine = hand & SUIT_MASK[s];
        if (!mine) continue;
        int len = popcount(mine);
        int held = 0;
        for (u64 m = mine; m; m &= m - 1) held++;
        /* Highest first. */
        int index = 0;
        u64 rest = mine;
        while (rest) {
            int c = high_card(rest);
            rest &= ~(1ULL << c);
            int is_trump = (int)(trump >> c & 1);
            u64 same = is_trump ? trump : SUIT_MASK[s];
            u64 higher = same & unseen & ~(((1ULL << c) << 1) - 1);
            int h = popcount(higher);
            /* The chance that no higher card is against us, allowing for our own guards. */
            double clear = pow(1.0 - frac, h);
            int guards = len - 1 - index;
            double p;
            if (h == 0) p = 1.0;
            else if (guards >= h) p = clear + (1.0 - clear) * (is_trump ? 0.75 : 0.45);
            else p = clear * (is_trump ? 0.9 : 0.6);
            if (!is_trump) {
                /* A plain card can be trumped: less so when the suit is short. */
                double ruff = trump ? 0.08 * (n - 1) * (1 + index) * frac : 0.0;
                if (ruff > 0.9) ruff = 0.9;
                p *= 1.0 - ruff;
                if (index >= 3) p *= 0.5;
            }
            total += p;
            index++;
        }
        (void)held;
    }
    if (trumps > 0) {
        /* Short plain suits let low trumps ruff. */
        for (int s = 0; s < 4; s++) {
            if (SUIT_MASK[s] & trump) continue;
            int len = popcount(hand & SUIT_MASK[s]);
            if (size >= 4 && len == 0) total += 0.35 * (trumps > 2 ? 2 : trumps - 0.5) * frac;
            else if (size >= 4 && len == 1) total += 0.25 * frac;
        }
    }
    /* Centre the estimates: a random hand is worth its fair share, size / players, on
     * average (fitted on random deals of 3-7 players and 1-13 cards; without it small
     * hands are overvalued by about 0.25 tricks and 10-card hands undervalued by 0.75). */
    total -= 0.27 - 0.0406 * size - 0.0303 * size * size / n + 0.00377 * size * n;
    if (total < 0) total = 0;
    if (total > size) total = size;
    return total;
}

static int heuristic_bid(double estimate, int size, int forbidden) {
    int bid = (int)floor(estimate + 0.5);
    if (bid < 0) bid = 0;
    if (bid > size) bid = size;
    if (bid == forbidden) {
        int down = bid - 1, up = bid + 1;
        if (down < 0) bid = up;
        else if (up > size) bid = down;
        else bid = (estimate >= bid) ? up : down;
    }
    return bid;
}

/* ------------------------------------------------- parsing from Python */

static int parse_mask(PyObject *obj, u64 *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = (u64)v;
    return 0;
}

static int parse_int_tuple(PyObject *obj, int *out, int max_len, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > max_len) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: too many items (%zd)", what, len);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return (int)len;
}

static int parse_mask_tuple(PyObject *obj, u64 *out, int max_len, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > max_len) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: too many items (%zd)", what, len);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        if (parse_mask(PySequence_Fast_GET_ITEM(seq, i), &out[i]) < 0) { Py_DECREF(seq); return -1; }
    }
    Py_DECREF(seq);
    return (int)len;
}

/* cfg = (n, size, trump_mask, must_trump, bids, score_rows[, random_shares[, policy_opponents]]) */
static int parse_cfg(PyObject *obj, Cfg *cfg) {
    PyObject *bids, *rows, *trump, *eps = NULL;
    memset(cfg, 0, sizeof(*cfg));
    cfg->me = -1;
    if (!PyArg_ParseTuple(obj, "iiOiOO|Oi", &cfg->n, &cfg->size, &trump, &cfg->must_trump, &bids, &rows, &eps,
                          &cfg->policy_opponents))
        return -1;
    if (eps && eps != Py_None) {
        PyObject *seq = PySequence_Fast(eps, "random shares");
        if (!seq) return -1;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq) && i < MAXP; i++) {
            cfg->eps[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
            if (cfg->eps[i] == -1.0 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        }
        Py_DECREF(seq);
    }
    if (cfg->n < 2 || cfg->n > MAXP) { PyErr_SetString(PyExc_ValueError, "bad number of players"); return -1; }
    if (cfg->size < 0 || cfg->size >= MAXS) { PyErr_SetString(PyExc_ValueError, "bad hand size"); return -1; }
    if (parse_mask(trump, &cfg->trump) < 0) return -1;
    if (parse_int_tuple(bids, cfg->bid, MAXP, "bids") != cfg->n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one bid per seat");
        return -1;
    }
    PyObject *seq = PySequence_Fast(rows, "score rows");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != cfg->n) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "one score row per seat");
        return -1;
    }
    for (int i = 0; i < cfg->n; i++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i), "score row");
        if (!row) { Py_DECREF(seq); return -1; }
        Py_ssize_t len = PySequence_Fast_GET_SIZE(row);
        if (len != cfg->size + 1) {
            Py_DECREF(row); Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a score row has one value per trick count 0..size");
            return -1;
        }
        for (Py_ssize_t t = 0; t < len; t++) {
            double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(row, t));
            if (v == -1.0 && PyErr_Occurred()) { Py_DECREF(row); Py_DECREF(seq); return -1; }
            cfg->score[i][t] = v;
        }
        for (int t = (int)len; t < MAXS; t++) cfg->score[i][t] = -1e9;   /* unreachable */
        Py_DECREF(row);
    }
    Py_DECREF(seq);
    return 0;
}

/* pos = (tricks, leader, trick_cards, remaining, gone) ; the hands come from a world */
static int parse_pos(PyObject *obj, const Cfg *cfg, Pos *pos) {
    PyObject *tricks, *trick_cards, *gone;
    memset(pos, 0, sizeof(*pos));
    if (!PyArg_ParseTuple(obj, "OiOiO", &tricks, &pos->leader, &trick_cards, &pos->remaining, &gone)) return -1;
    if (parse_int_tuple(tricks, pos->tricks, MAXP, "tricks") != cfg->n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one trick count per seat");
        return -1;
    }
    if (parse_mask(gone, &pos->gone) < 0) return -1;
    int cards[MAXP];
    int count = parse_int_tuple(trick_cards, cards, cfg->n - 1, "trick");
    if (count < 0) return -1;
    if (pos->leader < 0 || pos->leader >= cfg->n) { PyErr_SetString(PyExc_ValueError, "bad leader"); return -1; }
    /* Replay the trick in progress (the cards are no longer in the hands). */
    pos->turn = pos->leader;
    pos->count = 0;
    for (int i = 0; i < count; i++) {
        int c = cards[i];
        if (c < 0 || c > 53) { PyErr_SetString(PyExc_ValueError, "bad card in the trick"); return -1; }
        pos->trick[i] = c;
        if (i == 0) {
            pos->led = suit_of(c);
            pos->best_power = power(cfg, pos->led, c);
            pos->best_seat = pos->turn;
        } else {
            int p = power(cfg, pos->led, c);
            if (p > pos->best_power) { pos->best_power = p; pos->best_seat = pos->turn; }
        }
        pos->count++;
        pos->turn = (pos->turn + 1) % cfg->n;
    }
    return 0;
}

/* The worlds of one call, in a buffer the caller frees with PyMem_Free. */
static int parse_worlds(PyObject *obj, int n, u64 (**out)[MAXP], int *count) {
    PyObject *seq = PySequence_Fast(obj, "worlds");
    if (!seq) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > MAXW) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "too many worlds"); return -1; }
    u64 (*worlds)[MAXP] = PyMem_Malloc(sizeof(u64) * MAXP * (len ? len : 1));
    if (!worlds) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t w = 0; w < len; w++) {
        if (parse_mask_tuple(PySequence_Fast_GET_ITEM(seq, w), worlds[w], MAXP, "world") != n) {
            Py_DECREF(seq);
            PyMem_Free(worlds);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a world has one hand per seat");
            return -1;
        }
    }
    Py_DECREF(seq);
    *out = worlds;
    *count = (int)len;
    return 0;
}

/* rows: a sequence of ``count`` sequences of ``width`` numbers. */
static int parse_rows(PyObject *obj, double (*rows)[MAXS], int count, int width) {
    PyObject *seq = PySequence_Fast(obj, "rows");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != count || width > MAXS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "wrong number of score rows");
        return -1;
    }
    for (int i = 0; i < count; i++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i), "row");
        if (!row) { Py_DECREF(seq); return -1; }
        if (PySequence_Fast_GET_SIZE(row) != width) {
            Py_DECREF(row); Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a score row has one value per trick count 0..size");
            return -1;
        }
        for (int t = 0; t < width; t++) {
            double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(row, t));
            if (v == -1.0 && PyErr_Occurred()) { Py_DECREF(row); Py_DECREF(seq); return -1; }
            rows[i][t] = v;
        }
        for (int t = width; t < MAXS; t++) rows[i][t] = -1e9;
        Py_DECREF(row);
    }
    Py_DECREF(seq);
    return 0;
}

/* ------------------------------------------------------------- the API */

PyDoc_STRVAR(legal_doc, "legal(cfg, pos, hands) -> mask of the legal cards of the seat on turn.");

static PyObject *py_legal(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *pos_obj, *hands_obj;
    Cfg cfg; Pos pos;
    if (!PyArg_ParseTuple(args, "OOO", &cfg_obj, &pos_obj, &hands_obj)) return NULL;
    if (parse_cfg(cfg_obj, &cfg) < 0 || parse_pos(pos_obj, &cfg, &pos) < 0) return NULL;
    if (parse_mask_tuple(hands_obj, pos.hands, MAXP, "hands") != cfg.n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one hand per seat");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(legal(&cfg, &pos));
}

PyDoc_STRVAR(replay_doc,
"replay(cfg, pos, hands, cards) -> (legal_masks, winners, tricks)\n\n"
"Play ``cards`` in order from the position; return the legal mask before each card,\n"
"the winner of each trick completed and the final trick counts. ValueError on an\n"
"illegal card.");

static PyObject *py_replay(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *pos_obj, *hands_obj, *cards_obj;
    Cfg cfg; Pos pos;
    if (!PyArg_ParseTuple(args, "OOOO", &cfg_obj, &pos_obj, &hands_obj, &cards_obj)) return NULL;
    if (parse_cfg(cfg_obj, &cfg) < 0 || parse_pos(pos_obj, &cfg, &pos) < 0) return NULL;
    if (parse_mask_tuple(hands_obj, pos.hands, MAXP, "hands") != cfg.n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one hand per seat");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(cards_obj, "cards");
    if (!seq) return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    PyObject *masks = PyList_New(0), *winners = PyList_New(0);
    if (!masks || !winners) goto fail;
    for (Py_ssize_t i = 0; i < len; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (c == -1 && PyErr_Occurred()) goto fail;
        if (pos.remaining <= 0) { PyErr_SetString(PyExc_ValueError, "the hand is over"); goto fail; }
        u64 moves = legal(&cfg, &pos);
        PyObject *m = PyLong_FromUnsignedLongLong(moves);
        if (!m || PyList_Append(masks, m) < 0) { Py_XDECREF(m); goto fail; }
        Py_DECREF(m);
        if (c < 0 || c > 53 || !(moves >> c & 1)) {
            PyErr_Format(PyExc_ValueError, "card %ld is not legal for seat %d", c, pos.turn);
            goto fail;
        }
        int before = pos.remaining;
        apply_card(&cfg, &pos, (int)c);
        if (pos.remaining != before) {
            PyObject *w = PyLong_FromLong(pos.leader);
            if (!w || PyList_Append(winners, w) < 0) { Py_XDECREF(w); goto fail; }
            Py_DECREF(w);
        }
    }
    Py_DECREF(seq);
    PyObject *tricks = PyTuple_New(cfg.n);
    if (!tricks) { Py_DECREF(masks); Py_DECREF(winners); return NULL; }
    for (int i = 0; i < cfg.n; i++) PyTuple_SET_ITEM(tricks, i, PyLong_FromLong(pos.tricks[i]));
    return Py_BuildValue("(NNN)", masks, winners, tricks);
fail:
    Py_DECREF(seq);
    Py_XDECREF(masks);
    Py_XDECREF(winners);
    return NULL;
}

PyDoc_STRVAR(evaluate_doc,
"evaluate(cfg, pos, worlds, candidates, policy, epsilon, reps, solve_depth, seed) -> list\n\n"
"For each candidate card of the seat on turn and each world (a tuple of every seat's\n"
"hand), play the card, finish the hand ``reps`` times with ``policy`` (0 random,\n"
"1 heuristic; the other seats play a random card with probability epsilon) -- or exactly with the max^n solver when no more than\n"
"``solve_depth`` tricks are left -- and return the seat's trick counts as one bytes\n"
"object per candidate (``len(worlds) * reps`` counts, world-major).");

static PyObject *py_evaluate(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *pos_obj, *worlds_obj, *cand_obj;
    int policy, reps, solve_depth;
    double epsilon;
    unsigned long long seed;
    Cfg cfg; Pos base;
    int nworlds;
    if (!PyArg_ParseTuple(args, "OOOOidiiK", &cfg_obj, &pos_obj, &worlds_obj, &cand_obj, &policy, &epsilon,
                          &reps, &solve_depth, &seed)) return NULL;
    if (parse_cfg(cfg_obj, &cfg) < 0 || parse_pos(pos_obj, &cfg, &base) < 0) return NULL;
    int cands[64];
    int ncand = parse_int_tuple(cand_obj, cands, 64, "candidates");
    if (ncand < 0) return NULL;
    u64 (*world_buffer)[MAXP] = NULL;
    if (parse_worlds(worlds_obj, cfg.n, &world_buffer, &nworlds) < 0) return NULL;
    if (reps < 1) reps = 1;
    int seat = base.turn;
    cfg.me = seat;
    Rng rng = { seed * 0x2545F4914F6CDD1DULL + 1 };
    PyObject *out = PyList_New(ncand);
    if (!out) { PyMem_Free(world_buffer); return NULL; }
    for (int k = 0; k < ncand; k++) {
        PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)nworlds * reps);
        if (!bytes) { Py_DECREF(out); PyMem_Free(world_buffer); return NULL; }
        char *buf = PyBytes_AS_STRING(bytes);
        int c = cands[k];
        Py_BEGIN_ALLOW_THREADS
        for (int w = 0; w < nworlds; w++) {
            Pos start = base;
            memcpy(start.hands, world_buffer[w], sizeof(u64) * cfg.n);
            if (c < 0 || c > 53 || !(legal(&cfg, &start) >> c & 1)) {
                /* The card is not legal in this world: should not happen with consistent worlds. */
                for (int r = 0; r < reps; r++) buf[w * reps + r] = (char)0xFF;
                continue;
            }
            apply_card(&cfg, &start, c);
            if (start.remaining <= solve_depth) {
                int result[MAXP];
                maxn(&cfg, &start, result);
                for (int r = 0; r < reps; r++) buf[w * reps + r] = (char)result[seat];
                continue;
            }
            for (int r = 0; r < reps; r++) {
                Pos p = start;
                playout(&cfg, &p, policy, epsilon, &rng);
                buf[w * reps + r] = (char)p.tricks[seat];
            }
        }
        Py_END_ALLOW_THREADS
        PyList_SET_ITEM(out, k, bytes);
    }
    PyMem_Free(world_buffer);
    return out;
}

/* ------------------------------------------------------------- ISMCTS */

/* Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012) over the rest
 * of the hand: one tree of card sequences from the root, each iteration in another world
 * (a determinization of the hidden hands), UCB with availability counts (a card counts as
 * available in the worlds where its player holds it and may play it), rollouts by the
 * heuristic, every seat maximising its own score row (rewards scaled to 0..1). */

typedef struct {
    int card, child, next;
    int visits, avail, made;
    double reward;
} Edge;

typedef struct {
    Edge *edges;
    int *first;       /* first edge of each node */
    int nedges, nnodes, cap_edges, cap_nodes;
} Tree;

static int tree_grow(Tree *t) {
    if (t->nedges + 1 >= t->cap_edges) {
        int cap = t->cap_edges ? t->cap_edges * 2 : 4096;
        Edge *e = realloc(t->edges, sizeof(Edge) * cap);
        if (!e) return -1;
        t->edges = e; t->cap_edges = cap;
    }
    if (t->nnodes + 1 >= t->cap_nodes) {
        int cap = t->cap_nodes ? t->cap_nodes * 2 : 4096;
        int *f = realloc(t->first, sizeof(int) * cap);
        if (!f) return -1;
        t->first = f; t->cap_nodes = cap;
    }
    return 0;
}

static int new_node(Tree *t) {
    t->first[t->nnodes] = -1;
    return t->nnodes++;
}


typedef struct {
    int card;           /* a card, or a bid at a bidding root */
    int visits;
    int made;
    double reward;      /* the searching seat's mean score */
    int hist[MAXS];     /* the searching seat's final trick counts */
} RootStat;

/* The bidding root: the searching seat's candidate bids, then the others' bids by the
 * heuristic (a seat modelled as careless bids at random), then the play. */
typedef struct {
    int ncand;
    int cands[MAXS];
    double my_rows[MAXS][MAXS];
    double rows_by_bid[MAXS][MAXS];
    int order[MAXP], norder;
    int known[MAXP];    /* a known bid, -1 to bid, -2 does not bid */
    int dealer, hook, leader;
    double (*estimates)[MAXP];   /* each world's trick estimate of each seat */
} BidRoot;

static int find_or_add_edge(Tree *t, int node, int card, int *expanded) {
    for (int e = t->first[node]; e >= 0; e = t->edges[e].next) if (t->edges[e].card == card) return e;
    if (tree_grow(t) < 0) return -1;
    int child = new_node(t);
    int e = t->nedges++;
    t->edges[e] = (Edge){card, child, t->first[node], 0, 1, 0, 0.0};
    t->first[node] = e;
    *expanded = 1;
    return e;
}

/* Information-set MCTS from ``root`` (card play) or from a bidding root (``bids``).
 * Returns the number of iterations done (-1: out of memory); fills the root's statistics. */
static long run_ismcts(const Cfg *cfg, const Pos *root, const BidRoot *bids, u64 (*worlds)[MAXP], int nworlds,
                       long iterations, double uct_c, double epsilon, Rng *rng, double seconds, RootStat *stats,
                       int *nstats) {
    Tree t = {0};
    double lo = 1e300, hi = -1e300;
    for (int i = 0; i < cfg->n; i++) {
        for (int k = 0; k <= cfg->size; k++) {
            if (cfg->score[i][k] < lo) lo = cfg->score[i][k];
            if (cfg->score[i][k] > hi) hi = cfg->score[i][k];
        }
    }
    if (bids) {
        for (int b = 0; b <= cfg->size; b++) {
            for (int k = 0; k <= cfg->size; k++) {
                double v = bids->rows_by_bid[b][k];
                if (v < lo) lo = v;
                if (v > hi) hi = v;
            }
        }
        for (int c = 0; c < bids->ncand; c++) {
            for (int k = 0; k <= cfg->size; k++) {
                double v = bids->my_rows[c][k];
                if (v < lo) lo = v;
                if (v > hi) hi = v;
            }
        }
    }
    double span = hi > lo ? hi - lo : 1.0;
    int me = cfg->me;
    if (tree_grow(&t) < 0) return -1;
    int rootnode = new_node(&t);
    int path[MAXP * MAXS + 2], path_seat[MAXP * MAXS + 2];
    int hist[64][MAXS], root_edges[64], nroot = 0;
    memset(hist, 0, sizeof(hist));
    long it;
    struct timespec ts0, ts1;
    clock_gettime(CLOCK_MONOTONIC, &ts0);
    Cfg local = *cfg;
    for (it = 0; it < iterations; it++) {
        if (seconds > 0 && (it & 127) == 127) {
            clock_gettime(CLOCK_MONOTONIC, &ts1);
            if ((ts1.tv_sec - ts0.tv_sec) + (ts1.tv_nsec - ts0.tv_nsec) * 1e-9 > seconds) break;
        }
        int w = (int)(it % nworlds);
        const Cfg *c = cfg;
        Pos pos;
        int node = rootnode, depth = 0, expanded = 0;
        if (bids) {
            /* Choose the bid: each candidate once, then by UCB. */
            int chosen_edge = -1;
            if (t.nedges < bids->ncand) {
                chosen_edge = find_or_add_edge(&t, rootnode, bids->cands[t.nedges], &expanded);
            } else {
                double best = -1e300;
                for (int e = t.first[rootnode]; e >= 0; e = t.edges[e].next) {
                    Edge *ed = &t.edges[e];
                    ed->avail++;
                    double v = ed->reward / ed->visits + uct_c * sqrt(log((double)ed->avail) / ed->visits);
                    if (v > best) { best = v; chosen_edge = e; }
                }
            }
            if (chosen_edge < 0) { free(t.edges); free(t.first); return -1; }
            int k = 0;
            while (bids->cands[k] != t.edges[chosen_edge].card) k++;
            local.bid[me] = bids->cands[k];
            memcpy(local.score[me], bids->my_rows[k], sizeof(double) * MAXS);
            for (int i = 0; i < cfg->n; i++) if (i != me && bids->known[i] >= 0) local.bid[i] = bids->known[i];
            for (int i = 0; i < bids->norder; i++) {
                int s2 = bids->order[i];
                if (bids->known[s2] != -1 || s2 == me) continue;
                int forbidden = -1;
                if (bids->hook && s2 == bids->dealer) {
                    int others = 0;
                    for (int j = 0; j < cfg->n; j++) {
                        if (j == s2) continue;
                        int bj = (j == me || bids->known[j] >= 0 || bids->known[j] == -1) ? local.bid[j] : -1;
                        if (bj >= 0) others += bj;
                    }
                    forbidden = cfg->size - others;
                }
                int b;
                if (cfg->eps[s2] > 0 && rng_unit(rng) < cfg->eps[s2]) {
                    int choices = cfg->size + 1 - ((forbidden >= 0 && forbidden <= cfg->size) ? 1 : 0);
                    b = rng_below(rng, choices);
                    if (forbidden >= 0 && forbidden <= cfg->size && b >= forbidden) b++;
                } else {
                    b = heuristic_bid(bids->estimates[w][s2], cfg->size, forbidden);
                }
                local.bid[s2] = b;
                memcpy(local.score[s2], bids->rows_by_bid[b], sizeof(double) * MAXS);
            }
            c = &local;
            memset(&pos, 0, sizeof(pos));
            pos.leader = pos.turn = bids->leader;
            pos.remaining = cfg->size;
            path[depth] = chosen_edge;
            path_seat[depth] = me;
            depth++;
            node = t.edges[chosen_edge].child;
        } else {
            pos = *root;
        }
        memcpy(pos.hands, worlds[w], sizeof(u64) * cfg->n);
        while (pos.remaining > 0 && !expanded) {
            u64 moves = legal(c, &pos);
            int seat = pos.turn;
            u64 tried = 0;
            for (int e = t.first[node]; e >= 0; e = t.edges[e].next) {
                if (moves >> t.edges[e].card & 1) { t.edges[e].avail++; tried |= 1ULL << t.edges[e].card; }
            }
            u64 untried = moves & ~tried;
            int chosen_edge = -1;
            double noise = seat == me ? 0.0 : (c->eps[seat] > epsilon ? c->eps[seat] : epsilon);
            if (noise > 0 && rng_unit(rng) < noise) {
                /* A seat modelled as careless plays a random card here, not its best. */
                int card = nth_card(moves, rng_below(rng, popcount(moves)));
                chosen_edge = find_or_add_edge(&t, node, card, &expanded);
            } else if (seat != me && c->policy_opponents) {
                /* Opponents play the model's card, not a search fused over their possible hands. */
                chosen_edge = find_or_add_edge(&t, node, heuristic_choose(c, &pos), &expanded);
            } else if (untried) {
                int card = nth_card(untried, rng_below(rng, popcount(untried)));
                chosen_edge = find_or_add_edge(&t, node, card, &expanded);
            } else {
                double best = -1e300;
                for (int e = t.first[node]; e >= 0; e = t.edges[e].next) {
                    Edge *ed = &t.edges[e];
                    if (!(moves >> ed->card & 1)) continue;
                    double v = ed->reward / ed->visits + uct_c * sqrt(log((double)ed->avail) / ed->visits);
                    if (v > best) { best = v; chosen_edge = e; }
                }
            }
            if (chosen_edge < 0) { free(t.edges); free(t.first); return -1; }
            path[depth] = chosen_edge;
            path_seat[depth] = seat;
            depth++;
            apply_card(c, &pos, t.edges[chosen_edge].card);
            node = t.edges[chosen_edge].child;
        }
        playout(c, &pos, 1, epsilon, rng);
        int mine = pos.tricks[me];
        for (int d = 0; d < depth; d++) {
            Edge *ed = &t.edges[path[d]];
            int s2 = path_seat[d];
            ed->visits++;
            ed->reward += (c->score[s2][pos.tricks[s2]] - lo) / span;
            if (d == 0) {
                if (mine == c->bid[me]) ed->made++;
                int j = 0;
                while (j < nroot && root_edges[j] != path[0]) j++;
                if (j == nroot && nroot < 64) root_edges[nroot++] = path[0];
                if (j < 64 && mine < MAXS) hist[j][mine]++;
            }
        }
    }
    int k = 0;
    for (int e = t.first[rootnode]; e >= 0 && k < 64; e = t.edges[e].next) {
        Edge *ed = &t.edges[e];
        stats[k].card = ed->card;
        stats[k].visits = ed->visits;
        stats[k].made = ed->made;
        stats[k].reward = ed->visits ? lo + span * ed->reward / ed->visits : 0.0;
        memset(stats[k].hist, 0, sizeof(stats[k].hist));
        for (int j = 0; j < nroot; j++) {
            if (root_edges[j] == e) memcpy(stats[k].hist, hist[j], sizeof(stats[k].hist));
        }
        k++;
    }
    *nstats = k;
    free(t.edges);
    free(t.first);
    return it;
}

static PyObject *root_stats_list(const RootStat *stats, int nstats, int size) {
    PyObject *list = PyList_New(nstats);
    if (!list) return NULL;
    for (int i = 0; i < nstats; i++) {
        double made = stats[i].visits ? (double)stats[i].made / stats[i].visits : 0.0;
        PyObject *hist = PyTuple_New(size + 1);
        if (!hist) { Py_DECREF(list); return NULL; }
        for (int k = 0; k <= size; k++) PyTuple_SET_ITEM(hist, k, PyLong_FromLong(stats[i].hist[k]));
        PyList_SET_ITEM(list, i, Py_BuildValue("(iiddN)", stats[i].card, stats[i].visits, stats[i].reward, made,
                                               hist));
    }
    return list;
}

PyDoc_STRVAR(ismcts_doc,
"ismcts(cfg, pos, worlds, iterations, uct_c, epsilon, seconds, seed) -> (iterations, stats)\n\n"
"Information-set MCTS for the seat on turn over the given worlds (cycled through);\n"
"``seconds`` > 0 stops early. ``stats``: (card, visits, mean score, share of bids made,\n"
"trick histogram) for every card of the root.");

static PyObject *py_ismcts(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *pos_obj, *worlds_obj;
    long iterations;
    double uct_c, epsilon, seconds;
    unsigned long long seed;
    Cfg cfg; Pos base;
    int nworlds;
    if (!PyArg_ParseTuple(args, "OOOldddK", &cfg_obj, &pos_obj, &worlds_obj, &iterations, &uct_c, &epsilon,
                          &seconds, &seed)) return NULL;
    if (parse_cfg(cfg_obj, &cfg) < 0 || parse_pos(pos_obj, &cfg, &base) < 0) return NULL;
    u64 (*worlds)[MAXP] = NULL;
    if (parse_worlds(worlds_obj, cfg.n, &worlds, &nworlds) < 0) return NULL;
    if (nworlds == 0 || base.remaining <= 0) {
        PyMem_Free(worlds);
        PyErr_SetString(PyExc_ValueError, "no world to search, or the hand is over");
        return NULL;
    }
    cfg.me = base.turn;
    Rng rng = { seed * 0x2545F4914F6CDD1DULL + 5 };
    RootStat *stats = PyMem_Malloc(sizeof(RootStat) * 64);
    if (!stats) { PyMem_Free(worlds); return PyErr_NoMemory(); }
    int nstats = 0;
    long done;
    Py_BEGIN_ALLOW_THREADS
    done = run_ismcts(&cfg, &base, NULL, worlds, nworlds, iterations, uct_c, epsilon, &rng, seconds, stats,
                      &nstats);
    Py_END_ALLOW_THREADS
    PyMem_Free(worlds);
    if (done < 0) { PyMem_Free(stats); return PyErr_NoMemory(); }
    PyObject *list = root_stats_list(stats, nstats, cfg.size);
    PyMem_Free(stats);
    if (!list) return NULL;
    return Py_BuildValue("(lN)", done, list);
}

PyDoc_STRVAR(ismcts_bid_doc,
"ismcts_bid(cfg, worlds, seat, candidates, my_rows, rows_by_bid, bid_order, bids, dealer, hook,\n"
"           leader, unseen, iterations, uct_c, epsilon, seconds, seed) -> (iterations, stats)\n\n"
"Information-set MCTS of the seat's bid: the root chooses among the candidate bids (each\n"
"valued by its row of ``my_rows``); the seats still to bid bid by the heuristic (a seat\n"
"whose random share in cfg says so bids at random), then the hand is searched as by\n"
"``ismcts``. ``stats``: (bid, visits, mean score, share made, trick histogram).");

static PyObject *py_ismcts_bid(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *worlds_obj, *cand_obj, *order_obj, *bids_obj, *my_rows_obj, *rows_obj;
    int seat, dealer, hook, leader;
    long iterations;
    double uct_c, epsilon, seconds;
    unsigned long long unseen, seed;
    Cfg cfg;
    int nworlds;
    if (!PyArg_ParseTuple(args, "OOiOOOOOiiiKldddK", &cfg_obj, &worlds_obj, &seat, &cand_obj, &my_rows_obj,
                          &rows_obj, &order_obj, &bids_obj, &dealer, &hook, &leader, &unseen, &iterations,
                          &uct_c, &epsilon, &seconds, &seed)) return NULL;
    if (parse_cfg(cfg_obj, &cfg) < 0) return NULL;
    if (seat < 0 || seat >= cfg.n || leader < 0 || leader >= cfg.n || cfg.size < 1) {
        PyErr_SetString(PyExc_ValueError, "bad seat or hand");
        return NULL;
    }
    BidRoot *root = PyMem_Malloc(sizeof(BidRoot));
    if (!root) return PyErr_NoMemory();
    memset(root, 0, sizeof(*root));
    root->ncand = parse_int_tuple(cand_obj, root->cands, MAXS, "candidates");
    root->norder = parse_int_tuple(order_obj, root->order, MAXP, "bid order");
    if (root->ncand <= 0 || root->norder < 0 || parse_int_tuple(bids_obj, root->known, MAXP, "bids") != cfg.n
        || parse_rows(my_rows_obj, root->my_rows, root->ncand, cfg.size + 1) < 0
        || parse_rows(rows_obj, root->rows_by_bid, cfg.size + 1, cfg.size + 1) < 0) {
        PyMem_Free(root);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad candidates, bids or rows");
        return NULL;
    }
    root->dealer = dealer; root->hook = hook; root->leader = leader;
    u64 (*worlds)[MAXP] = NULL;
    if (parse_worlds(worlds_obj, cfg.n, &worlds, &nworlds) < 0) { PyMem_Free(root); return NULL; }
    if (nworlds == 0) {
        PyMem_Free(root); PyMem_Free(worlds);
        PyErr_SetString(PyExc_ValueError, "no world to search");
        return NULL;
    }
    root->estimates = PyMem_Malloc(sizeof(double) * MAXP * nworlds);
    RootStat *stats = PyMem_Malloc(sizeof(RootStat) * 64);
    if (!root->estimates || !stats) {
        PyMem_Free(root->estimates); PyMem_Free(stats); PyMem_Free(root); PyMem_Free(worlds);
        return PyErr_NoMemory();
    }
    for (int w = 0; w < nworlds; w++) {
        for (int i = 0; i < cfg.n; i++) {
            u64 hand = worlds[w][i];
            root->estimates[w][i] = estimate_tricks(hand, cfg.trump, unseen & ~hand, cfg.n, cfg.size);
        }
    }
    cfg.me = seat;
    Rng rng = { seed * 0x2545F4914F6CDD1DULL + 9 };
    int nstats = 0;
    long done;
    Py_BEGIN_ALLOW_THREADS
    done = run_ismcts(&cfg, NULL, root, worlds, nworlds, iterations, uct_c, epsilon, &rng, seconds, stats, &nstats);
    Py_END_ALLOW_THREADS
    PyMem_Free(root->estimates);
    PyMem_Free(root);
    PyMem_Free(worlds);
    if (done < 0) { PyMem_Free(stats); return PyErr_NoMemory(); }
    PyObject *list = root_stats_list(stats, nstats, cfg.size);
    PyMem_Free(stats);
    if (!list) return NULL;
    return Py_BuildValue("(lN)", done, list);
}

PyDoc_STRVAR(play_likelihood_doc,
"play_likelihood(cfg, worlds, steps, match) -> list of tuples\n\n"
"How well each world explains the cards chosen so far. ``steps``: (seat, card, before,\n"
"pos) for every card a seat chose, where ``before[s]`` are the cards seat s played from\n"
"that moment on (added back to the world's hands) and ``pos`` the position then. A careful\n"
"seat plays the open-hand heuristic's card with chance ``match`` (any other legal card\n"
"otherwise); a random seat any legal card alike. For every world: the log-likelihood of\n"
"each seat's cards if careful, then if random (2 * players numbers).");

static PyObject *py_play_likelihood(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *worlds_obj, *steps_obj;
    double match;
    Cfg cfg;
    int nworlds;
    if (!PyArg_ParseTuple(args, "OOOd", &cfg_obj, &worlds_obj, &steps_obj, &match)) return NULL;
    if (parse_cfg(cfg_obj, &cfg) < 0) return NULL;
    PyObject *seq = PySequence_Fast(steps_obj, "steps");
    if (!seq) return NULL;
    Py_ssize_t nsteps = PySequence_Fast_GET_SIZE(seq);
    typedef struct { int seat, card; u64 before[MAXP]; Pos pos; } Step;
    Step *steps = PyMem_Malloc(sizeof(Step) * (nsteps ? nsteps : 1));
    if (!steps) { Py_DECREF(seq); return PyErr_NoMemory(); }
    for (Py_ssize_t i = 0; i < nsteps; i++) {
        PyObject *before_obj, *pos_obj;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiOO", &steps[i].seat, &steps[i].card,
                              &before_obj, &pos_obj)
            || parse_mask_tuple(before_obj, steps[i].before, MAXP, "before") != cfg.n
            || parse_pos(pos_obj, &cfg, &steps[i].pos) < 0
            || steps[i].seat < 0 || steps[i].seat >= cfg.n || steps[i].card < 0 || steps[i].card > 53) {
            PyMem_Free(steps); Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad step");
            return NULL;
        }
    }
    Py_DECREF(seq);
    u64 (*worlds)[MAXP] = NULL;
    if (parse_worlds(worlds_obj, cfg.n, &worlds, &nworlds) < 0) { PyMem_Free(steps); return NULL; }
    double *out = PyMem_Malloc(sizeof(double) * 2 * MAXP * (nworlds ? nworlds : 1));
    if (!out) { PyMem_Free(steps); PyMem_Free(worlds); return PyErr_NoMemory(); }
    Py_BEGIN_ALLOW_THREADS
    for (int w = 0; w < nworlds; w++) {
        double *careful = out + 2 * MAXP * w, *random_ = careful + MAXP;
        for (int i = 0; i < MAXP; i++) careful[i] = random_[i] = 0.0;
        for (Py_ssize_t i = 0; i < nsteps; i++) {
            Pos pos = steps[i].pos;
            for (int s2 = 0; s2 < cfg.n; s2++) pos.hands[s2] = worlds[w][s2] | steps[i].before[s2];
            u64 moves = legal(&cfg, &pos);
            int options = popcount(moves);
            if (options <= 1 || !(moves >> steps[i].card & 1)) continue;
            int choice = heuristic_choose(&cfg, &pos);
            int seat = steps[i].seat;
            careful[seat] += log(choice == steps[i].card ? match : (1.0 - match) / (options - 1));
            random_[seat] += log(1.0 / options);
        }
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(steps);
    PyMem_Free(worlds);
    PyObject *list = PyList_New(nworlds);
    if (!list) { PyMem_Free(out); return NULL; }
    for (int w = 0; w < nworlds; w++) {
        PyObject *t = PyTuple_New(2 * cfg.n);
        if (!t) { PyMem_Free(out); Py_DECREF(list); return NULL; }
        for (int i = 0; i < cfg.n; i++) {
            PyTuple_SET_ITEM(t, i, PyFloat_FromDouble(out[2 * MAXP * w + i]));
            PyTuple_SET_ITEM(t, cfg.n + i, PyFloat_FromDouble(out[2 * MAXP * w + MAXP + i]));
        }
        PyList_SET_ITEM(list, w, t);
    }
    PyMem_Free(out);
    return list;
}

PyDoc_STRVAR(bid_rollouts_doc,
"bid_rollouts(cfg, worlds, seat, candidates, my_rows, rows_by_bid, bid_order, bids, dealer, hook,\n"
"             leader, unseen, reps, epsilon, seed) -> list of bytes\n\n"
"For each candidate bid of ``seat`` (valued by the matching row of ``my_rows``) and each\n"
"world (every seat's whole hand), complete the bidding in ``bid_order`` (``bids[s]``: a\n"
"known bid, -1 to be bid by the heuristic -- hook honoured for ``dealer`` -- or -2 for a\n"
"seat that does not bid and plays for tricks), then play the hand from ``leader`` with\n"
"the heuristic policy.  A heuristic bidder values tricks by ``rows_by_bid[bid]``.\n"
"Returns the seat's trick counts as one bytes object per candidate (world-major).");

static PyObject *py_bid_rollouts(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *worlds_obj, *cand_obj, *order_obj, *bids_obj, *my_rows_obj, *rows_obj;
    int seat, dealer, hook, leader, reps;
    double epsilon;
    unsigned long long unseen_base, seed;
    Cfg cfg;
    int nworlds;
    if (!PyArg_ParseTuple(args, "OOiOOOOOiiiKidK", &cfg_obj, &worlds_obj, &seat, &cand_obj, &my_rows_obj,
                          &rows_obj, &order_obj, &bids_obj, &dealer, &hook, &leader, &unseen_base, &reps,
                          &epsilon, &seed)) return NULL;
    if (parse_cfg(cfg_obj, &cfg) < 0) return NULL;
    int cands[MAXS], order[MAXP], known[MAXP];
    int ncand = parse_int_tuple(cand_obj, cands, MAXS, "candidates");
    int norder = parse_int_tuple(order_obj, order, MAXP, "bid order");
    if (ncand < 0 || norder < 0) return NULL;
    if (parse_int_tuple(bids_obj, known, MAXP, "bids") != cfg.n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one bid per seat");
        return NULL;
    }
    if (seat < 0 || seat >= cfg.n || leader < 0 || leader >= cfg.n) {
        PyErr_SetString(PyExc_ValueError, "bad seat");
        return NULL;
    }
    double my_rows[MAXS][MAXS], rows_by_bid[MAXS][MAXS];
    if (parse_rows(my_rows_obj, my_rows, ncand, cfg.size + 1) < 0) return NULL;
    if (parse_rows(rows_obj, rows_by_bid, cfg.size + 1, cfg.size + 1) < 0) return NULL;
    u64 (*worlds)[MAXP] = NULL;
    if (parse_worlds(worlds_obj, cfg.n, &worlds, &nworlds) < 0) return NULL;
    if (reps < 1) reps = 1;
    cfg.me = seat;
    Rng rng = { seed * 0x2545F4914F6CDD1DULL + 7 };
    PyObject *out = PyList_New(ncand);
    if (!out) { PyMem_Free(worlds); return NULL; }
    for (int k = 0; k < ncand; k++) {
        PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)nworlds * reps);
        if (!bytes) { Py_DECREF(out); PyMem_Free(worlds); return NULL; }
        char *buf = PyBytes_AS_STRING(bytes);
        int bid = cands[k];
        Py_BEGIN_ALLOW_THREADS
        for (int w = 0; w < nworlds; w++) {
            Cfg c2 = cfg;
            for (int i = 0; i < cfg.n; i++) c2.bid[i] = known[i] >= 0 ? known[i] : -1;
            c2.bid[seat] = bid;
            for (int t = 0; t <= cfg.size; t++) c2.score[seat][t] = my_rows[k][t];
            for (int i = 0; i < norder; i++) {
                int s = order[i];
                if (known[s] != -1 || s == seat) continue;
                u64 hand = worlds[w][s];
                double e = estimate_tricks(hand, cfg.trump, unseen_base & ~hand, cfg.n, cfg.size);
                int forbidden = -1;
                if (hook && s == dealer) {
                    int others = 0;
                    for (int j = 0; j < cfg.n; j++) if (j != s && c2.bid[j] >= 0) others += c2.bid[j];
                    forbidden = cfg.size - others;
                }
                int b = heuristic_bid(e, cfg.size, forbidden);
                c2.bid[s] = b;
                for (int t = 0; t <= cfg.size; t++) c2.score[s][t] = rows_by_bid[b][t];
            }
            for (int r = 0; r < reps; r++) {
                Pos p;
                memset(&p, 0, sizeof(p));
                memcpy(p.hands, worlds[w], sizeof(u64) * cfg.n);
                p.leader = p.turn = leader;
                p.remaining = cfg.size;
                playout(&c2, &p, 1, epsilon, &rng);
                buf[w * reps + r] = (char)p.tricks[seat];
            }
        }
        Py_END_ALLOW_THREADS
        PyList_SET_ITEM(out, k, bytes);
    }
    PyMem_Free(worlds);
    return out;
}

PyDoc_STRVAR(estimate_doc,
"estimate(hands, trump, unseen, n, size) -> list of floats\n\n"
"The heuristic expected tricks of each hand before the bidding; ``unseen`` is the set of\n"
"cards that may be in other hands (each hand's own cards are taken out of it).");

static PyObject *py_estimate(PyObject *self, PyObject *args) {
    PyObject *hands_obj;
    unsigned long long trump, unseen;
    int n, size;
    if (!PyArg_ParseTuple(args, "OKKii", &hands_obj, &trump, &unseen, &n, &size)) return NULL;
    PyObject *seq = PySequence_Fast(hands_obj, "hands");
    if (!seq) return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(len);
    if (!out) { Py_DECREF(seq); return NULL; }
    for (Py_ssize_t i = 0; i < len; i++) {
        u64 hand;
        if (parse_mask(PySequence_Fast_GET_ITEM(seq, i), &hand) < 0) { Py_DECREF(seq); Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, PyFloat_FromDouble(estimate_tricks(hand, trump, unseen & ~hand, n, size)));
    }
    Py_DECREF(seq);
    return out;
}

PyDoc_STRVAR(sample_doc,
"sample(unknown, capacities, allowed, count, seed, tries) -> list of tuples of masks\n\n"
"Deal the cards of ``unknown`` to places (seats, and the stock as a place with every card\n"
"allowed) so that place i gets exactly capacities[i] cards, all in allowed[i]. Returns up\n"
"to ``count`` deals; a deal that fails is tried again up to ``tries`` times.");

static PyObject *py_sample(PyObject *self, PyObject *args) {
    unsigned long long unknown, seed;
    PyObject *cap_obj, *allowed_obj;
    int count, tries;
    if (!PyArg_ParseTuple(args, "KOOiKi", &unknown, &cap_obj, &allowed_obj, &count, &seed, &tries)) return NULL;
    int caps[MAXP + 2];
    u64 allowed[MAXP + 2];
    int places = parse_int_tuple(cap_obj, caps, MAXP + 2, "capacities");
    if (places < 0) return NULL;
    if (parse_mask_tuple(allowed_obj, allowed, MAXP + 2, "allowed") != places) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one allowed mask per place");
        return NULL;
    }
    int total = 0;
    for (int i = 0; i < places; i++) total += caps[i];
    int cards[64], ncards = 0;
    for (u64 m = unknown; m; m &= m - 1) cards[ncards++] = low_card(m);
    if (total != ncards) {
        PyErr_Format(PyExc_ValueError, "%d places for %d cards", total, ncards);
        return NULL;
    }
    /* Most constrained cards first: those fewer places may take. */
    int options[64];
    for (int i = 0; i < ncards; i++) {
        options[i] = 0;
        for (int p = 0; p < places; p++) if (caps[p] > 0 && (allowed[p] >> cards[i] & 1)) options[i]++;
    }
    Rng rng = { seed * 0x2545F4914F6CDD1DULL + 3 };
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    int failures = 0;
    while (PyList_GET_SIZE(out) < count && failures <= tries) {
        int order[64];
        for (int i = 0; i < ncards; i++) order[i] = i;
        for (int i = ncards - 1; i > 0; i--) {
            int j = rng_below(&rng, i + 1);
            int t = order[i]; order[i] = order[j]; order[j] = t;
        }
        /* A stable insertion sort by the number of options keeps the random order within ties. */
        for (int i = 1; i < ncards; i++) {
            int v = order[i], j = i - 1;
            while (j >= 0 && options[order[j]] > options[v]) { order[j + 1] = order[j]; j--; }
            order[j + 1] = v;
        }
        int left[MAXP + 2];
        u64 dealt[MAXP + 2];
        memcpy(left, caps, sizeof(int) * places);
        memset(dealt, 0, sizeof(dealt));
        int ok = 1;
        for (int i = 0; i < ncards && ok; i++) {
            int c = cards[order[i]];
            int weight = 0;
            for (int p = 0; p < places; p++) if (left[p] > 0 && (allowed[p] >> c & 1)) weight += left[p];
            if (weight == 0) { ok = 0; break; }
            int pick = rng_below(&rng, weight);
            for (int p = 0; p < places; p++) {
                if (left[p] > 0 && (allowed[p] >> c & 1)) {
                    if (pick < left[p]) { dealt[p] |= 1ULL << c; left[p]--; break; }
                    pick -= left[p];
                }
            }
        }
        if (!ok) { failures++; continue; }
        PyObject *world = PyTuple_New(places);
        if (!world) { Py_DECREF(out); return NULL; }
        for (int p = 0; p < places; p++) PyTuple_SET_ITEM(world, p, PyLong_FromUnsignedLongLong(dealt[p]));
        if (PyList_Append(out, world) < 0) { Py_DECREF(world); Py_DECREF(out); return NULL; }
        Py_DECREF(world);
    }
    return out;
}

/* A random hand from the deal on: shuffle, deal, turn up, bid at random (hook honoured),
 * play at random.  Fills the deal, the bids and the plays; returns the tricks. */
typedef struct {
    int n, size, dealer, turn_up_rule, hook, must_trump;
    u64 deck;
} HandSpec;

typedef struct {
    u64 hands[MAXP];
    int turn_up;
    int bids[MAXP];
    int plays[MAXP * MAXS];
    int tricks[MAXP];
} HandLog;

static void random_hand(const HandSpec *spec, Rng *rng, HandLog *log) {
    int deck[64], ncards = 0;
    for (u64 m = spec->deck; m; m &= m - 1) deck[ncards++] = low_card(m);
    int n = spec->n, size = spec->size;
    /* Only the cards dealt (and the turn-up) need shuffling: a partial Fisher-Yates. */
    int needed = n * size + 1;
    if (needed > ncards) needed = ncards;
    for (int i = 0; i < needed; i++) {
        int j = i + rng_below(rng, ncards - i);
        int t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
    Cfg cfg;
    cfg.n = n; cfg.size = size; cfg.must_trump = spec->must_trump; cfg.trump = 0;
    Pos pos;
    memset(&pos, 0, sizeof(pos));
    for (int i = 0; i < n * size; i++) pos.hands[(spec->dealer + 1 + i) % n] |= 1ULL << deck[i];
    log->turn_up = -1;
    if (spec->turn_up_rule && n * size < ncards) {
        int c = deck[n * size];
        log->turn_up = c;
        if (c >= 52) cfg.trump = 1ULL << (c == 52 ? 53 : 52);
        else cfg.trump = SUIT_MASK[c / 13];
    }
    memcpy(log->hands, pos.hands, sizeof(pos.hands));
    int sum = 0;
    for (int i = 0; i < n; i++) {
        int s = (spec->dealer + 1 + i) % n;
        int forbidden = (spec->hook && s == spec->dealer) ? size - sum : -1;
        int choices = size + 1 - ((forbidden >= 0 && forbidden <= size) ? 1 : 0);
        int b = rng_below(rng, choices);
        if (forbidden >= 0 && forbidden <= size && b >= forbidden) b++;
        log->bids[s] = b;
        sum += b;
    }
    pos.leader = pos.turn = (spec->dealer + 1) % n;
    pos.remaining = size;
    int k = 0;
    while (pos.remaining > 0) {
        u64 moves = legal(&cfg, &pos);
        int card = nth_card(moves, rng_below(rng, popcount(moves)));
        log->plays[k++] = card;
        apply_card(&cfg, &pos, card);
    }
    memcpy(log->tricks, pos.tricks, sizeof(pos.tricks));
}

static int parse_spec(PyObject *args, HandSpec *spec, int *count, unsigned long long *seed) {
    unsigned long long deck;
    if (!PyArg_ParseTuple(args, "iiiKiiiiK", &spec->n, &spec->size, count, &deck, &spec->turn_up_rule,
                          &spec->hook, &spec->must_trump, &spec->dealer, seed)) return -1;
    spec->deck = deck;
    if (spec->n < 2 || spec->n > MAXP || spec->size < 1 || spec->size >= MAXS
        || spec->n * spec->size > popcount(deck) || spec->dealer < 0 || spec->dealer >= spec->n) {
        PyErr_SetString(PyExc_ValueError, "bad hand specification");
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(simulate_doc,
"simulate(n, size, count, deck, turn_up, hook, must_trump, dealer, seed) -> int\n\n"
"Play ``count`` random complete hands (shuffle, deal, turn-up, random bids, random\n"
"play, exact-bid scoring); return the total score, a checksum of the work done.");

static PyObject *py_simulate(PyObject *self, PyObject *args) {
    HandSpec spec;
    int count;
    unsigned long long seed;
    if (parse_spec(args, &spec, &count, &seed) < 0) return NULL;
    Rng rng = { seed * 0x2545F4914F6CDD1DULL + 11 };
    long long total = 0;
    HandLog log;
    Py_BEGIN_ALLOW_THREADS
    for (int h = 0; h < count; h++) {
        random_hand(&spec, &rng, &log);
        for (int s = 0; s < spec.n; s++) if (log.bids[s] == log.tricks[s]) total += 10 + log.bids[s];
    }
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(total);
}

PyDoc_STRVAR(random_hand_doc,
"random_hand(n, size, 1, deck, turn_up, hook, must_trump, dealer, seed) -> tuple\n\n"
"One random hand as (hands, turn_up, bids, plays, tricks) for checking against the engine.");

static PyObject *py_random_hand(PyObject *self, PyObject *args) {
    HandSpec spec;
    int count;
    unsigned long long seed;
    if (parse_spec(args, &spec, &count, &seed) < 0) return NULL;
    Rng rng = { seed * 0x2545F4914F6CDD1DULL + 13 };
    HandLog log;
    random_hand(&spec, &rng, &log);
    int n = spec.n;
    PyObject *hands = PyTuple_New(n), *bids = PyTuple_New(n), *tricks = PyTuple_New(n);
    PyObject *plays = PyTuple_New(n * spec.size);
    if (!hands || !bids || !tricks || !plays) {
        Py_XDECREF(hands); Py_XDECREF(bids); Py_XDECREF(tricks); Py_XDECREF(plays);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyTuple_SET_ITEM(hands, i, PyLong_FromUnsignedLongLong(log.hands[i]));
        PyTuple_SET_ITEM(bids, i, PyLong_FromLong(log.bids[i]));
        PyTuple_SET_ITEM(tricks, i, PyLong_FromLong(log.tricks[i]));
    }
    for (int i = 0; i < n * spec.size; i++) PyTuple_SET_ITEM(plays, i, PyLong_FromLong(log.plays[i]));
    return Py_BuildValue("(NiNNN)", hands, log.turn_up, bids, plays, tricks);
}

PyDoc_STRVAR(solve_doc,
"solve(cfg, pos, hands) -> (tricks, nodes)\n\n"
"The final trick counts of the max^n solution from the position, and the nodes searched.");

static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *pos_obj, *hands_obj;
    Cfg cfg; Pos pos;
    if (!PyArg_ParseTuple(args, "OOO", &cfg_obj, &pos_obj, &hands_obj)) return NULL;
    if (parse_cfg(cfg_obj, &cfg) < 0 || parse_pos(pos_obj, &cfg, &pos) < 0) return NULL;
    if (parse_mask_tuple(hands_obj, pos.hands, MAXP, "hands") != cfg.n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one hand per seat");
        return NULL;
    }
    int result[MAXP];
    solver_nodes = 0;
    Py_BEGIN_ALLOW_THREADS
    maxn(&cfg, &pos, result);
    Py_END_ALLOW_THREADS
    PyObject *tricks = PyTuple_New(cfg.n);
    if (!tricks) return NULL;
    for (int i = 0; i < cfg.n; i++) PyTuple_SET_ITEM(tricks, i, PyLong_FromLong(result[i]));
    return Py_BuildValue("(Nl)", tricks, solver_nodes);
}

PyDoc_STRVAR(choose_doc, "heuristic(cfg, pos, hands) -> the card the open-hand heuristic plays.");

static PyObject *py_heuristic(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *pos_obj, *hands_obj;
    Cfg cfg; Pos pos;
    if (!PyArg_ParseTuple(args, "OOO", &cfg_obj, &pos_obj, &hands_obj)) return NULL;
    if (parse_cfg(cfg_obj, &cfg) < 0 || parse_pos(pos_obj, &cfg, &pos) < 0) return NULL;
    if (parse_mask_tuple(hands_obj, pos.hands, MAXP, "hands") != cfg.n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one hand per seat");
        return NULL;
    }
    if (!legal(&cfg, &pos)) { PyErr_SetString(PyExc_ValueError, "no card to play"); return NULL; }
    return PyLong_FromLong(heuristic_choose(&cfg, &pos));
}

static PyMethodDef methods[] = {
    {"legal", py_legal, METH_VARARGS, legal_doc},
    {"replay", py_replay, METH_VARARGS, replay_doc},
    {"evaluate", py_evaluate, METH_VARARGS, evaluate_doc},
    {"bid_rollouts", py_bid_rollouts, METH_VARARGS, bid_rollouts_doc},
    {"estimate", py_estimate, METH_VARARGS, estimate_doc},
    {"sample", py_sample, METH_VARARGS, sample_doc},
    {"simulate", py_simulate, METH_VARARGS, simulate_doc},
    {"random_hand", py_random_hand, METH_VARARGS, random_hand_doc},
    {"solve", py_solve, METH_VARARGS, solve_doc},
    {"heuristic", py_heuristic, METH_VARARGS, choose_doc},
    {"ismcts", py_ismcts, METH_VARARGS, ismcts_doc},
    {"play_likelihood", py_play_likelihood, METH_VARARGS, play_likelihood_doc},
    {"ismcts_bid", py_ismcts_bid, METH_VARARGS, ismcts_bid_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The fast simulation core of the ohhell bots (see ohhell.fastsim).", -1, methods,
};

static int bots_add_functions(PyObject *module);   /* the bots' section, at the end of this file */

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && bots_add_functions(m) < 0) { Py_DECREF(m); return NULL; }
    return m;
}


/* =====================================================================================
 * The bots' section (kept apart from the core above so that both can change at once).
 *
 * ``search``: the strong bot's information-set MCTS, as ``ismcts``/``ismcts_bid`` above
 * with two differences that matter when a bid's value is not linear in the tricks
 * (``10 + bid²``, ``triangular-penalty``):
 *
 *  - The exploration term of UCB is in each seat's own points: ``c * sigma_s``, where
 *    sigma_s is the spread (standard deviation) of that seat's results over the
 *    iterations so far.  ``ismcts`` scales every reward by the span of every score row,
 *    which under ``triangular-penalty`` is the distance from a missed 10 (-275) to a made
 *    10 (+110): the real differences between two cards (a few points) then vanish under
 *    the exploration term and the search barely tells its moves apart.
 *  - In a bidding search the other seats' bids may come from a table of how much each
 *    seat likes each bid in each world (``values``, from a learned model of the tricks a
 *    hand takes and the rules' scoring); the seat takes the best bid the hook allows.
 * ===================================================================================== */

#define BOTS_PRIOR_SIGMA 5.0   /* points: the spread assumed before any result is in */
#define BOTS_PRIOR_WEIGHT 4.0  /* how many results that assumption is worth */

typedef struct {
    double sum[MAXP], sumsq[MAXP];
    double count;
    double sigma[MAXP];
} Spread;

static void spread_update(Spread *sp, const Cfg *c, const Pos *pos) {
    sp->count += 1.0;
    for (int i = 0; i < c->n; i++) {
        double v = c->score[i][pos->tricks[i]];
        sp->sum[i] += v;
        sp->sumsq[i] += v * v;
        double var = sp->sumsq[i] - sp->sum[i] * sp->sum[i] / sp->count;
        if (var < 0) var = 0;
        double s2 = (BOTS_PRIOR_WEIGHT * BOTS_PRIOR_SIGMA * BOTS_PRIOR_SIGMA + var) / (BOTS_PRIOR_WEIGHT + sp->count);
        sp->sigma[i] = sqrt(s2) > 0.5 ? sqrt(s2) : 0.5;
    }
}

/* The best bid of seat ``s`` in world ``w`` that the hook allows, by the value table. */
static int bots_table_bid(const double *values, int w, int s, int size, int forbidden) {
    const double *row = values + ((size_t)w * MAXP + s) * MAXS;
    int best = -1;
    for (int b = 0; b <= size; b++) {
        if (b == forbidden) continue;
        if (best < 0 || row[b] > row[best]) best = b;
    }
    return best < 0 ? 0 : best;
}

static long bots_run_search(const Cfg *cfg, const Pos *root, const BidRoot *bids, const double *values,
                            u64 (*worlds)[MAXP], int nworlds, long iterations, double uct_c, Rng *rng,
                            double seconds, RootStat *stats, int *nstats) {
    Tree t = {0};
    Spread sp;
    memset(&sp, 0, sizeof(sp));
    for (int i = 0; i < MAXP; i++) sp.sigma[i] = BOTS_PRIOR_SIGMA;
    int me = cfg->me;
    if (tree_grow(&t) < 0) return -1;
    int rootnode = new_node(&t);
    int path[MAXP * MAXS + 2], path_seat[MAXP * MAXS + 2];
    int hist[64][MAXS], root_edges[64], nroot = 0;
    memset(hist, 0, sizeof(hist));
    long it;
    struct timespec ts0, ts1;
    clock_gettime(CLOCK_MONOTONIC, &ts0);
    Cfg local = *cfg;
    for (it = 0; it < iterations; it++) {
        if (seconds > 0 && (it & 127) == 127) {
            clock_gettime(CLOCK_MONOTONIC, &ts1);
            if ((ts1.tv_sec - ts0.tv_sec) + (ts1.tv_nsec - ts0.tv_nsec) * 1e-9 > seconds) break;
        }
        int w = (int)(it % nworlds);
        const Cfg *c = cfg;
        Pos pos;
        int node = rootnode, depth = 0, expanded = 0;
        if (bids) {
            int chosen_edge = -1;
            if (t.nedges < bids->ncand) {
                chosen_edge = find_or_add_edge(&t, rootnode, bids->cands[t.nedges], &expanded);
            } else {
                double best = -1e300;
                for (int e = t.first[rootnode]; e >= 0; e = t.edges[e].next) {
                    Edge *ed = &t.edges[e];
                    ed->avail++;
                    double v = ed->reward / ed->visits
                               + uct_c * sp.sigma[me] * sqrt(log((double)ed->avail) / ed->visits);
                    if (v > best) { best = v; chosen_edge = e; }
                }
            }
            if (chosen_edge < 0) { free(t.edges); free(t.first); return -1; }
            int k = 0;
            while (bids->cands[k] != t.edges[chosen_edge].card) k++;
            local.bid[me] = bids->cands[k];
            memcpy(local.score[me], bids->my_rows[k], sizeof(double) * MAXS);
            for (int i = 0; i < cfg->n; i++) if (i != me && bids->known[i] >= 0) local.bid[i] = bids->known[i];
            for (int i = 0; i < bids->norder; i++) {
                int s2 = bids->order[i];
                if (bids->known[s2] != -1 || s2 == me) continue;
                int forbidden = -1;
                if (bids->hook && s2 == bids->dealer) {
                    int others = 0;
                    for (int j = 0; j < cfg->n; j++) {
                        if (j == s2) continue;
                        if (local.bid[j] >= 0 && bids->known[j] != -2) others += local.bid[j];
                    }
                    forbidden = cfg->size - others;
                }
                int b;
                if (cfg->eps[s2] > 0 && rng_unit(rng) < cfg->eps[s2]) {
                    int choices = cfg->size + 1 - ((forbidden >= 0 && forbidden <= cfg->size) ? 1 : 0);
                    b = rng_below(rng, choices);
                    if (forbidden >= 0 && forbidden <= cfg->size && b >= forbidden) b++;
                } else if (values) {
                    b = bots_table_bid(values, w, s2, cfg->size, forbidden);
                } else {
                    b = heuristic_bid(bids->estimates[w][s2], cfg->size, forbidden);
                }
                local.bid[s2] = b;
                memcpy(local.score[s2], bids->rows_by_bid[b], sizeof(double) * MAXS);
            }
            c = &local;
            memset(&pos, 0, sizeof(pos));
            pos.leader = pos.turn = bids->leader;
            pos.remaining = cfg->size;
            path[depth] = chosen_edge;
            path_seat[depth] = me;
            depth++;
            node = t.edges[chosen_edge].child;
        } else {
            pos = *root;
        }
        memcpy(pos.hands, worlds[w], sizeof(u64) * cfg->n);
        while (pos.remaining > 0 && !expanded) {
            u64 moves = legal(c, &pos);
            int seat = pos.turn;
            u64 tried = 0;
            for (int e = t.first[node]; e >= 0; e = t.edges[e].next) {
                if (moves >> t.edges[e].card & 1) { t.edges[e].avail++; tried |= 1ULL << t.edges[e].card; }
            }
            u64 untried = moves & ~tried;
            int chosen_edge = -1;
            double noise = seat == me ? 0.0 : c->eps[seat];
            if (noise > 0 && rng_unit(rng) < noise) {
                int card = nth_card(moves, rng_below(rng, popcount(moves)));
                chosen_edge = find_or_add_edge(&t, node, card, &expanded);
            } else if (seat != me && c->policy_opponents) {
                chosen_edge = find_or_add_edge(&t, node, heuristic_choose(c, &pos), &expanded);
            } else if (untried) {
                int card = nth_card(untried, rng_below(rng, popcount(untried)));
                chosen_edge = find_or_add_edge(&t, node, card, &expanded);
            } else {
                double best = -1e300;
                double scale = uct_c * sp.sigma[seat];
                for (int e = t.first[node]; e >= 0; e = t.edges[e].next) {
                    Edge *ed = &t.edges[e];
                    if (!(moves >> ed->card & 1)) continue;
                    double v = ed->reward / ed->visits + scale * sqrt(log((double)ed->avail) / ed->visits);
                    if (v > best) { best = v; chosen_edge = e; }
                }
            }
            if (chosen_edge < 0) { free(t.edges); free(t.first); return -1; }
            path[depth] = chosen_edge;
            path_seat[depth] = seat;
            depth++;
            apply_card(c, &pos, t.edges[chosen_edge].card);
            node = t.edges[chosen_edge].child;
        }
        playout(c, &pos, 1, 0.0, rng);
        spread_update(&sp, c, &pos);
        int mine = pos.tricks[me];
        for (int d = 0; d < depth; d++) {
            Edge *ed = &t.edges[path[d]];
            int s2 = path_seat[d];
            ed->visits++;
            ed->reward += c->score[s2][pos.tricks[s2]];
            if (d == 0) {
                if (mine == c->bid[me]) ed->made++;
                int j = 0;
                while (j < nroot && root_edges[j] != path[0]) j++;
                if (j == nroot && nroot < 64) root_edges[nroot++] = path[0];
                if (j < 64 && mine < MAXS) hist[j][mine]++;
            }
        }
    }
    int k = 0;
    for (int e = t.first[rootnode]; e >= 0 && k < 64; e = t.edges[e].next) {
        Edge *ed = &t.edges[e];
        stats[k].card = ed->card;
        stats[k].visits = ed->visits;
        stats[k].made = ed->made;
        stats[k].reward = ed->visits ? ed->reward / ed->visits : 0.0;
        memset(stats[k].hist, 0, sizeof(stats[k].hist));
        for (int j = 0; j < nroot; j++) {
            if (root_edges[j] == e) memcpy(stats[k].hist, hist[j], sizeof(stats[k].hist));
        }
        k++;
    }
    *nstats = k;
    free(t.edges);
    free(t.first);
    return it;
}

PyDoc_STRVAR(search_doc,
"search(cfg, pos, worlds, iterations, uct_c, seconds, seed, bidding=None) -> (iterations, stats)\n\n"
"Information-set MCTS like ``ismcts``, with the exploration term in each seat's own points\n"
"(``uct_c`` times the spread of that seat's results).  ``pos`` is the card-play position\n"
"(``None`` with ``bidding``).  ``bidding`` searches the bid of a seat instead:\n"
"``(seat, candidates, my_rows, rows_by_bid, bid_order, bids, dealer, hook, leader, unseen,\n"
"values)``, as for ``ismcts_bid``; ``values`` is ``None`` (the seats still to bid bid the\n"
"rounded trick estimate) or a buffer of float64 ``[world][seat][bid]`` (shape\n"
"len(worlds) x players x (size + 1)): how much each seat likes each bid in each world, the\n"
"seat taking the best one the hook allows.  ``stats``: (card or bid, visits, mean score,\n"
"share of bids made, trick histogram) for every action of the root.");

static PyObject *py_bots_search(PyObject *self, PyObject *args) {
    PyObject *cfg_obj, *pos_obj, *worlds_obj, *bidding_obj = Py_None;
    long iterations;
    double uct_c, seconds;
    unsigned long long seed;
    Cfg cfg;
    Pos base;
    int nworlds;
    if (!PyArg_ParseTuple(args, "OOOlddK|O", &cfg_obj, &pos_obj, &worlds_obj, &iterations, &uct_c, &seconds,
                          &seed, &bidding_obj)) return NULL;
    if (parse_cfg(cfg_obj, &cfg) < 0) return NULL;
    BidRoot *root = NULL;
    Py_buffer values_view = {0};
    int have_values = 0;
    unsigned long long unseen = 0;
    if (bidding_obj == Py_None) {
        if (parse_pos(pos_obj, &cfg, &base) < 0) return NULL;
        if (base.remaining <= 0) { PyErr_SetString(PyExc_ValueError, "the hand is over"); return NULL; }
        cfg.me = base.turn;
    } else {
        PyObject *cand_obj, *my_rows_obj, *rows_obj, *order_obj, *bids_obj, *values_obj;
        int seat, dealer, hook, leader;
        if (!PyArg_ParseTuple(bidding_obj, "iOOOOOiiiKO", &seat, &cand_obj, &my_rows_obj, &rows_obj, &order_obj,
                              &bids_obj, &dealer, &hook, &leader, &unseen, &values_obj)) return NULL;
        if (seat < 0 || seat >= cfg.n || leader < 0 || leader >= cfg.n || cfg.size < 1) {
            PyErr_SetString(PyExc_ValueError, "bad seat or hand");
            return NULL;
        }
        root = PyMem_Malloc(sizeof(BidRoot));
        if (!root) return PyErr_NoMemory();
        memset(root, 0, sizeof(*root));
        root->ncand = parse_int_tuple(cand_obj, root->cands, MAXS, "candidates");
        root->norder = parse_int_tuple(order_obj, root->order, MAXP, "bid order");
        if (root->ncand <= 0 || root->norder < 0
            || parse_int_tuple(bids_obj, root->known, MAXP, "bids") != cfg.n
            || parse_rows(my_rows_obj, root->my_rows, root->ncand, cfg.size + 1) < 0
            || parse_rows(rows_obj, root->rows_by_bid, cfg.size + 1, cfg.size + 1) < 0) {
            PyMem_Free(root);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad candidates, bids or rows");
            return NULL;
        }
        root->dealer = dealer; root->hook = hook; root->leader = leader;
        cfg.me = seat;
        if (values_obj != Py_None) {
            if (PyObject_GetBuffer(values_obj, &values_view, PyBUF_C_CONTIGUOUS) < 0) { PyMem_Free(root); return NULL; }
            have_values = 1;
        }
    }
    u64 (*worlds)[MAXP] = NULL;
    if (parse_worlds(worlds_obj, cfg.n, &worlds, &nworlds) < 0) {
        if (have_values) PyBuffer_Release(&values_view);
        PyMem_Free(root);
        return NULL;
    }
    if (nworlds == 0) {
        if (have_values) PyBuffer_Release(&values_view);
        PyMem_Free(root); PyMem_Free(worlds);
        PyErr_SetString(PyExc_ValueError, "no world to search");
        return NULL;
    }
    double *values = NULL;
    if (root) {
        root->estimates = PyMem_Malloc(sizeof(double) * MAXP * nworlds);
        if (have_values) {
            Py_ssize_t width = cfg.size + 1;
            if (values_view.len != (Py_ssize_t)sizeof(double) * nworlds * cfg.n * width) {
                PyBuffer_Release(&values_view);
                PyMem_Free(root->estimates); PyMem_Free(root); PyMem_Free(worlds);
                PyErr_SetString(PyExc_ValueError, "values: one float64 per world, seat and bid");
                return NULL;
            }
            /* Spread out to the fixed [world][MAXP][MAXS] layout the search reads. */
            values = PyMem_Malloc(sizeof(double) * MAXP * MAXS * nworlds);
            if (values) {
                const double *src = (const double *)values_view.buf;
                for (int w = 0; w < nworlds; w++)
                    for (int s = 0; s < cfg.n; s++)
                        for (int b = 0; b < MAXS; b++)
                            values[((size_t)w * MAXP + s) * MAXS + b] =
                                b < width ? src[((size_t)w * cfg.n + s) * width + b] : -1e300;
            }
            PyBuffer_Release(&values_view);
        }
        if (!root->estimates || (have_values && !values)) {
            PyMem_Free(values); PyMem_Free(root->estimates); PyMem_Free(root); PyMem_Free(worlds);
            return PyErr_NoMemory();
        }
        for (int w = 0; w < nworlds; w++) {
            for (int i = 0; i < cfg.n; i++) {
                u64 hand = worlds[w][i];
                root->estimates[w][i] = estimate_tricks(hand, cfg.trump, unseen & ~hand, cfg.n, cfg.size);
            }
        }
    }
    Rng rng = { seed * 0x2545F4914F6CDD1DULL + 17 };
    RootStat *stats = PyMem_Malloc(sizeof(RootStat) * 64);
    if (!stats) {
        PyMem_Free(values);
        if (root) PyMem_Free(root->estimates);
        PyMem_Free(root); PyMem_Free(worlds);
        return PyErr_NoMemory();
    }
    int nstats = 0;
    long done;
    Py_BEGIN_ALLOW_THREADS
    done = bots_run_search(&cfg, root ? NULL : &base, root, values, worlds, nworlds, iterations, uct_c, &rng,
                           seconds, stats, &nstats);
    Py_END_ALLOW_THREADS
    PyMem_Free(values);
    if (root) PyMem_Free(root->estimates);
    PyMem_Free(root);
    PyMem_Free(worlds);
    if (done < 0) { PyMem_Free(stats); return PyErr_NoMemory(); }
    PyObject *list = root_stats_list(stats, nstats, cfg.size);
    PyMem_Free(stats);
    if (!list) return NULL;
    return Py_BuildValue("(lN)", done, list);
}

/* ``count`` ints from a sequence. */
static int parse_seq_ints(PyObject *obj, int *out, Py_ssize_t count) {
    PyObject *seq = PySequence_Fast(obj, "ints");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "one number per hand");
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return 0;
}

/* ---------------------------------------------------------- the bid model */

/* The learned bid model of ohhell/bots/bid_model.py: the same input vector (``features``)
 * and one hidden layer of ReLUs; the outputs are the policy logits (bids 0..13), the trick
 * logits q (0..13) and the steering strength, P(t | b) ~ exp(q[t] - softplus(c) |t - b|). */

#define BM_WIDTH 14
#define BM_SCORINGS 6
#define BM_INPUTS (52 + 13 + 1 + 5 + 2 + 7 + 1 + 3 + BM_SCORINGS)
#define BM_OUTPUTS (2 * BM_WIDTH + 1)
#define BM_MAX_HIDDEN 256

typedef struct {
    int hidden;
    const float *w1, *b1, *w2, *b2;
} BidModel;

static void bm_features(u64 hand, int trump_suit, int turn_up_rank, int n, int size, int position,
                        int bids_before, int bids_count, int scoring, float *x) {
    memset(x, 0, sizeof(float) * BM_INPUTS);
    int order[4], k = 0;
    if (trump_suit >= 0) order[k++] = trump_suit;
    int first_plain = k;
    for (int s = 0; s < 4; s++) if (s != trump_suit) order[k++] = s;
    /* Plain suits by length, then by their cards, highest first (a stable selection sort). */
    for (int i = first_plain; i < k; i++) {
        int best = i;
        for (int j = i + 1; j < k; j++) {
            u64 bj = (hand >> (13 * order[j])) & 0x1FFF, bb = (hand >> (13 * order[best])) & 0x1FFF;
            int cj = popcount(bj), cb = popcount(bb);
            if (cj > cb || (cj == cb && bj > bb)) best = j;
        }
        int t = order[i]; order[i] = order[best]; order[best] = t;
    }
    for (int slot = 0; slot < k; slot++) {
        u64 bits = (hand >> (13 * order[slot])) & 0x1FFF;
        for (int r = 0; r < 13; r++) if (bits >> r & 1) x[slot * 13 + r] = 1.0f;
    }
    if (turn_up_rank >= 0 && turn_up_rank < 13) x[52 + turn_up_rank] = 1.0f;
    if (trump_suit < 0) x[65] = 1.0f;
    int nc = n < 3 ? 3 : n > 7 ? 7 : n;
    x[66 + nc - 3] = 1.0f;
    x[71] = (float)(size / 13.0);
    x[72] = (float)(n * size / 52.0);
    x[73 + (position < 6 ? position : 6)] = 1.0f;
    x[80] = position == n - 1 ? 1.0f : 0.0f;
    double sz = size > 0 ? size : 1;
    x[81] = (float)(bids_before / sz);
    x[82] = (float)(bids_count / (double)(n > 1 ? n - 1 : 1));
    x[83] = (float)((bids_before - bids_count * (double)size / n) / sz);
    if (scoring >= 0 && scoring < BM_SCORINGS) x[84 + scoring] = 1.0f;
}

static void bm_forward(const BidModel *m, const float *x, double *out) {
    double h[BM_MAX_HIDDEN];
    int nz[BM_INPUTS], nnz = 0;
    for (int i = 0; i < BM_INPUTS; i++) if (x[i] != 0.0f) nz[nnz++] = i;
    for (int j = 0; j < m->hidden; j++) {
        const float *row = m->w1 + (size_t)j * BM_INPUTS;
        double v = m->b1[j];
        for (int k = 0; k < nnz; k++) v += (double)row[nz[k]] * x[nz[k]];
        h[j] = v > 0 ? v : 0.0;
    }
    for (int o = 0; o < BM_OUTPUTS; o++) {
        const float *row = m->w2 + (size_t)o * m->hidden;
        double v = m->b2[o];
        for (int j = 0; j < m->hidden; j++) v += (double)row[j] * h[j];
        out[o] = v;
    }
}

static double bm_softplus(double v) { return log1p(exp(-fabs(v))) + (v > 0 ? v : 0); }

/* The trick distribution after bidding ``bid`` (t = 0..size) from the outputs. */
static void bm_tricks(const double *out, int bid, int size, double *p) {
    double strength = bm_softplus(out[2 * BM_WIDTH]), top = -1e300;
    for (int t = 0; t <= size; t++) {
        p[t] = out[BM_WIDTH + t] - strength * abs(t - bid);
        if (p[t] > top) top = p[t];
    }
    double total = 0;
    for (int t = 0; t <= size; t++) { p[t] = exp(p[t] - top); total += p[t]; }
    for (int t = 0; t <= size; t++) p[t] /= total;
}

PyDoc_STRVAR(bid_values_doc,
"bid_values(weights, hidden, hands, trump_suit, turn_up_rank, n, size, positions, bids_before,\n"
"           bids_count, scoring, rows) -> (values, policy)\n\n"
"The learned bid model (ohhell/bots/bid_model.py) for a batch of hands: ``weights`` is the\n"
"packed float32 ``w1 b1 w2 b2`` of a network with ``hidden`` units; ``positions``,\n"
"``bids_before`` and ``bids_count`` are per hand (the hand's place in the bidding, the sum\n"
"and number of bids made before it); ``scoring`` indexes bid_model.SCORINGS; ``rows`` gives\n"
"the score of each trick count after each bid 0..size (``None``: the policy only).  Returns\n"
"two bytes objects of float64, hands x (size + 1): each bid's expected score (zeros without\n"
"rows), and the chance a strong player bids it.");

static PyObject *py_bid_values(PyObject *self, PyObject *args) {
    Py_buffer wv;
    int hidden, trump_suit, turn_up_rank, n, size, scoring;
    PyObject *hands_obj, *pos_obj, *before_obj, *count_obj, *rows_obj;
    if (!PyArg_ParseTuple(args, "y*iOiiiiOOOiO", &wv, &hidden, &hands_obj, &trump_suit, &turn_up_rank, &n, &size,
                          &pos_obj, &before_obj, &count_obj, &scoring, &rows_obj)) return NULL;
    PyObject *result = NULL, *values_bytes = NULL, *policy_bytes = NULL;
    int *ints = NULL;
    u64 *hands = NULL;
    double rows[MAXS][MAXS];
    Py_ssize_t expected = (Py_ssize_t)sizeof(float) * ((Py_ssize_t)hidden * BM_INPUTS + hidden
                                                       + (Py_ssize_t)BM_OUTPUTS * hidden + BM_OUTPUTS);
    if (hidden < 1 || hidden > BM_MAX_HIDDEN || wv.len != expected) {
        PyErr_SetString(PyExc_ValueError, "bid model weights do not match their sizes");
        goto done;
    }
    if (size < 1 || size >= BM_WIDTH || n < 2 || n > MAXP) {
        PyErr_SetString(PyExc_ValueError, "the bid model covers 1 to 13 cards");
        goto done;
    }
    PyObject *seq = PySequence_Fast(hands_obj, "hands");
    if (!seq) goto done;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    hands = PyMem_Malloc(sizeof(u64) * (count ? count : 1));
    ints = PyMem_Malloc(sizeof(int) * 3 * (count ? count : 1));
    if (!hands || !ints) { Py_DECREF(seq); PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < count; i++) {
        if (parse_mask(PySequence_Fast_GET_ITEM(seq, i), &hands[i]) < 0) { Py_DECREF(seq); goto done; }
    }
    Py_DECREF(seq);
    if (count > 0 && (parse_seq_ints(pos_obj, ints, count) < 0 || parse_seq_ints(before_obj, ints + count, count) < 0
                      || parse_seq_ints(count_obj, ints + 2 * count, count) < 0)) goto done;
    int with_values = rows_obj != Py_None;
    if (with_values && parse_rows(rows_obj, rows, size + 1, size + 1) < 0) goto done;
    values_bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)sizeof(double) * count * (size + 1));
    policy_bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)sizeof(double) * count * (size + 1));
    if (!values_bytes || !policy_bytes) goto done;
    double *values = (double *)PyBytes_AS_STRING(values_bytes), *policy = (double *)PyBytes_AS_STRING(policy_bytes);
    BidModel m;
    m.hidden = hidden;
    m.w1 = (const float *)wv.buf;
    m.b1 = m.w1 + (size_t)hidden * BM_INPUTS;
    m.w2 = m.b1 + hidden;
    m.b2 = m.w2 + (size_t)BM_OUTPUTS * hidden;
    Py_BEGIN_ALLOW_THREADS
    float x[BM_INPUTS];
    double out[BM_OUTPUTS], p[BM_WIDTH];
    for (Py_ssize_t i = 0; i < count; i++) {
        bm_features(hands[i], trump_suit, turn_up_rank, n, size, ints[i], ints[count + i], ints[2 * count + i],
                    scoring, x);
        bm_forward(&m, x, out);
        double *v = values + i * (size + 1), *pol = policy + i * (size + 1);
        if (with_values) {
            /* P(t | b) = eq[t] * el[|t - b|] / sum: the exponentials once, not once per bid. */
            double eq[BM_WIDTH], el[BM_WIDTH], top = -1e300;
            double strength = bm_softplus(out[2 * BM_WIDTH]);
            for (int t = 0; t <= size; t++) if (out[BM_WIDTH + t] > top) top = out[BM_WIDTH + t];
            for (int t = 0; t <= size; t++) { eq[t] = exp(out[BM_WIDTH + t] - top); el[t] = exp(-strength * t); }
            for (int b = 0; b <= size; b++) {
                double total = 0, ev = 0;
                for (int t = 0; t <= size; t++) {
                    double w = eq[t] * el[t > b ? t - b : b - t];
                    total += w;
                    ev += w * rows[b][t];
                }
                if (total > 1e-250) {
                    v[b] = ev / total;
                } else {   /* far in the tails: the softmax of the combined logits, exactly */
                    bm_tricks(out, b, size, p);
                    ev = 0;
                    for (int t = 0; t <= size; t++) ev += p[t] * rows[b][t];
                    v[b] = ev;
                }
            }
        } else {
            for (int b = 0; b <= size; b++) v[b] = 0.0;
        }
        double top = -1e300, total = 0;
        for (int b = 0; b <= size; b++) if (out[b] > top) top = out[b];
        for (int b = 0; b <= size; b++) { pol[b] = exp(out[b] - top); total += pol[b]; }
        for (int b = 0; b <= size; b++) pol[b] /= total;
    }
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("(OO)", values_bytes, policy_bytes);
done:
    Py_XDECREF(values_bytes);
    Py_XDECREF(policy_bytes);
    PyMem_Free(hands);
    PyMem_Free(ints);
    PyBuffer_Release(&wv);
    return result;
}

static PyMethodDef bots_methods[] = {
    {"search", py_bots_search, METH_VARARGS, search_doc},
    {"bid_values", py_bid_values, METH_VARARGS, bid_values_doc},
    {NULL, NULL, 0, NULL},
};

static int bots_add_functions(PyObject *module) {
    return PyModule_AddFunctions(module, bots_methods);
}
