/*
 * ohhell.analysis._solver -- the exact open-hand solver of the analysis.
 *
 * With every hand face up, one seat (``seat``) plays against all the others.  The
 * question is which final trick counts of that seat it can force whatever the others
 * do (mode FORCE: an AND/OR game) and which it can reach if the others help (mode
 * HELP: every seat on its side).  Both are answered for every trick count at once: a
 * node's value is the set of final counts (a bit mask) that are forcible (reachable)
 * from it.  At the seat's turn the sets of its moves are united; at another seat's
 * turn (FORCE) they are intersected.  The search carries a mask ``want`` of the counts
 * still in question, the set-valued form of an alpha-beta window: at the seat's turn
 * a move is asked only about the counts no earlier move gave, at another seat's turn
 * only about the counts every earlier move left; a search stops as soon as nothing
 * remains in question.  For every count in ``want`` the answer is exact.
 *
 * Speed comes from:
 *  - a transposition table at trick boundaries, keyed by the hands in relative ranks
 *    (within a suit only the order of the cards still held matters, so positions that
 *    differ by which low cards are gone are the same), storing for each position the
 *    counts known forcible and the counts known not forcible (relative to the tricks
 *    already taken), so a later question about other counts reuses the answer;
 *  - equivalent cards: of cards next to each other in a suit, with no card still in
 *    play between them, only one is tried;
 *  - bounds: a trump higher than every trump in the other hands always takes a trick,
 *    so counts below the seat's sure winners are out at once; counts beyond the tricks
 *    left are out;
 *  - move ordering: the seat first tries cards that move its count towards the counts
 *    in question (high when it needs tricks, low when it must shed them), the others
 *    the opposite.
 *
 * The rules are those of ohhell.game for one hand's card play: following suit,
 * must-trump, any trump mask (a suit; none; the single joker that is trump when a
 * joker is turned up), own-suit jokers (a led joker wins unless trumped, of two jokers
 * the first played wins) and NE-England Blackout's high-low jokers (never led unless
 * nothing else is held, never played to the first trick unless nothing else is held,
 * otherwise playable to any trick; the first played is declared high or low -- two
 * moves -- and the second is the opposite; after a joker lead the first card of its
 * colour fixes the suit, else the first other card).  tests/analysis/test_analysis_solver.py
 * checks it against brute force over the reference engine's states.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

typedef uint64_t u64;
typedef uint32_t u32;

#define MAXP 8              /* seats */
#define MAXT 31             /* tricks a hand may have (masks are 32 bits) */
#define JOKER_RED 52
#define JOKER_BLACK 53
#define JOKERS ((u64)3 << 52)

static const u64 SUIT_MASK[5] = {
    0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39, 3ULL << 52,
};

static inline int suit_of(int card) { return card / 13; }
static inline int rank_of(int card) { return card >= 52 ? 13 : card % 13; }
static inline int low_card(u64 mask) { return __builtin_ctzll(mask); }
static inline int high_card(u64 mask) { return 63 - __builtin_clzll(mask); }
static inline int popcount(u64 mask) { return __builtin_popcountll(mask); }
/* 0 black (spades, clubs, the black joker), 1 red (hearts, diamonds, the red joker). */
static inline int colour_of(int card) {
    if (card >= 52) return card == JOKER_RED;
    int s = suit_of(card);
    return s == 1 || s == 2;
}

enum { FORCE = 0, HELP = 1 };
#ifndef ORDER_EXTREMES
#define ORDER_EXTREMES 2
#endif

typedef struct {
    int n, seat, mode, must_trump, high_low;
    u64 trump;
    long long nodes, limit;     /* limit <= 0: none */
    int aborted;
    int tt_bits;                /* the part of the table in use (see find_entry) */
    long long stores;           /* entries written since it last grew */
    signed char killer[MAXT * MAXP + 1][2];   /* per card played so far: cards that ended a search */
} Game;

typedef struct {
    u64 hands[MAXP];
    int leader, count, turn, remaining, mine;
    int trick[MAXP];
    int trick_suit;     /* the suit to follow; -1 after a high-low joker lead until fixed */
    int joker_high;     /* -1 undeclared, else the declaration of the first joker played */
    int first_joker;    /* -1, or the first joker played in the hand */
    int first_trick;    /* the hand's first trick is in progress */
    int ply;            /* cards played since the root */
} Pos;

/* --------------------------------------------------------------- the rules */

static inline u64 legal(const Game *g, const Pos *p) {
    u64 hand = p->hands[p->turn];
    if (!g->high_low) {
        if (p->count == 0) return hand;
        u64 follow = hand & SUIT_MASK[p->trick_suit];
        if (follow) return follow;
        if (g->must_trump) {
            u64 t = hand & g->trump;
            if (t) return t;
        }
        return hand;
    }
    u64 jokers = hand & JOKERS, others = hand & ~JOKERS;
    if (p->count == 0) return others ? others : hand;
    u64 mask = others;
    if (p->trick_suit >= 0) {
        u64 follow = others & SUIT_MASK[p->trick_suit];
        if (follow) mask = follow;
        else if (g->must_trump && (others & g->trump)) mask = others & g->trump;
    }
    if (p->first_trick) return mask ? mask : hand;
    return mask | jokers;
}

static inline int joker_is_high(const Pos *p, int card) {
    return card == p->first_joker ? p->joker_high : !p->joker_high;
}

/* The seat that takes the completed trick held in p->trick (led by p->leader). */
static int trick_winner(const Game *g, const Pos *p) {
    int n = g->n;
    int led = p->trick_suit;
    if (led < 0) {
        led = 4;
        for (int i = 0; i < n; i++) if (p->trick[i] < 52) { led = suit_of(p->trick[i]); break; }
    }
    int best = -1000, best_seat = p->leader;
    for (int i = 0; i < n; i++) {
        int c = p->trick[i], power;
        if (g->high_low && c >= 52) power = joker_is_high(p, c) ? 1000 : -1;
        else if (g->trump >> c & 1) power = 200 + rank_of(c);
        else if (suit_of(c) == led) power = 100 + rank_of(c);
        else continue;
        if (power > best) { best = power; best_seat = (p->leader + i) % n; }
    }
    return best_seat;
}

/* Play ``card`` (declared ``declare`` when it is the first high-low joker). */
static inline void apply_card(const Game *g, Pos *p, int card, int declare) {
    p->hands[p->turn] &= ~(1ULL << card);
    if (p->count == 0) {
        p->trick_suit = (g->high_low && card >= 52) ? -1 : suit_of(card);
    } else if (p->trick_suit < 0 && card < 52 && colour_of(card) == colour_of(p->trick[0])) {
        p->trick_suit = suit_of(card);
    }
    if (g->high_low && card >= 52 && p->joker_high < 0) {
        p->joker_high = declare;
        p->first_joker = card;
    }
    p->trick[p->count++] = card;
    p->ply++;
    if (p->count == g->n) {
        int winner = trick_winner(g, p);
        if (winner == g->seat) p->mine++;
        p->leader = p->turn = winner;
        p->count = 0;
        p->remaining--;
        p->first_trick = 0;
    } else {
        p->turn = (p->turn + 1) % g->n;
    }
}

/* ------------------------------------------------------ transposition table */

/* A position at a trick boundary, exactly and in relative ranks: for each standard suit,
 * the owner of each card still held, lowest first (3 bits each), then the suits' lengths,
 * the jokers' owners, the leader and the joker state. */
typedef struct { u64 w[4]; } Key;

typedef struct {
    Key key;
    u32 yes, no;            /* counts (relative to the tricks taken) known in / known out */
    u32 generation;
    unsigned char alo, ahi; /* bounds of A: the most tricks the seat can force (reach) */
    unsigned char blo, bhi; /* bounds of B: the fewest tricks it can force (reach) */
    unsigned char depth;    /* tricks left: deeper entries are kept in preference */
    unsigned char used;
} Entry;

#define TT_BITS 20
#define TT_SIZE (1u << TT_BITS)
static Entry *table;
static u32 generation;
static PyThread_type_lock table_lock;   /* one search at a time uses the table */

static inline u64 mix(u64 z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void make_key(const Game *g, const Pos *p, int joker_state, Key *key) {
    u64 all = 0;
    for (int i = 0; i < g->n; i++) all |= p->hands[i];
    u64 words[3] = {0, 0, 0};
    int bit = 0;
    u64 lengths = 0;
    for (int s = 0; s < 4; s++) {
        u64 live = all & SUIT_MASK[s];
        lengths |= (u64)popcount(live) << (4 * s);
        for (u64 m = live; m; m &= m - 1) {
            u64 card = m & -m;
            int owner = 0;
            while (!(p->hands[owner] & card)) owner++;
            words[bit >> 6] |= (u64)owner << (bit & 63);
            if ((bit & 63) > 61) words[(bit >> 6) + 1] |= (u64)owner >> (64 - (bit & 63));
            bit += 3;
        }
    }
    u64 jokers = 0;
    for (int j = 0; j < 2; j++) {
        u64 card = 1ULL << (52 + j);
        int owner = 15;
        if (all & card) { owner = 0; while (!(p->hands[owner] & card)) owner++; }
        jokers |= (u64)owner << (4 * j);
    }
    key->w[0] = words[0]; key->w[1] = words[1]; key->w[2] = words[2];
    key->w[3] = lengths | jokers << 16 | (u64)p->leader << 24 | (u64)joker_state << 28;
}

static Entry *find_entry(Game *g, const Key *key, int *found) {
    u64 h = mix(key->w[0] ^ mix(key->w[1] ^ mix(key->w[2] ^ mix(key->w[3]))));
    Entry *bucket = &table[(h & ((1u << g->tt_bits) - 1)) & ~1u];
    for (int i = 0; i < 2; i++) {
        Entry *e = &bucket[i];
        if (e->generation == generation && memcmp(&e->key, key, sizeof(Key)) == 0) { *found = 1; return e; }
    }
    *found = 0;
    /* Replace a stale entry, else the shallower one. */
    if (bucket[0].generation != generation) return &bucket[0];
    if (bucket[1].generation != generation) return &bucket[1];
    return bucket[0].depth <= bucket[1].depth ? &bucket[0] : &bucket[1];
}

/* ----------------------------------------------------------------- bounds */

/* Whether ``y`` can be played into a trick that ``w`` is to win without beating it (``w``'s
 * suit led unless ``w`` is trump); high-low jokers as their declaration allows. */
/* The cards of ``hand`` that can be played into a trick that ``w`` is to win without
 * beating it (``w``'s suit led unless ``w`` is trump); high-low jokers as their
 * declaration allows. */
static u64 stay_under(const Game *g, const Pos *p, u64 hand, int w) {
    u64 jokers = 0;
    if (g->high_low) {
        for (u64 m = hand & JOKERS; m; m &= m - 1) {
            int y = low_card(m);
            if (p->joker_high < 0 || !joker_is_high(p, y)) jokers |= 1ULL << y;
        }
        hand &= ~JOKERS;
        if (w >= 52) return hand | jokers;   /* a high joker beats everything */
    }
    u64 below = w >= 52 ? SUIT_MASK[4] & ~(1ULL << w) : ((1ULL << w) - 1) & SUIT_MASK[suit_of(w)];
    if (g->trump >> w & 1) {
        /* Trumps beat it only when higher (the trump joker is the only trump of its kind). */
        return (hand & ~g->trump) | (hand & g->trump & below) | jokers;
    }
    /* A trump beats it, and so does a higher card of its suit (of two equal jokers the
     * first played wins, so the other can stay under). */
    u64 same = SUIT_MASK[suit_of(w)];
    u64 over = w >= 52 ? 0 : same & ~below & ~(1ULL << w);
    return (hand & ~g->trump & ~over) | jokers;
}

static int kuhn(int a, const u64 *adj, u64 *seen, int *match_of) {
    for (u64 m = adj[a]; m; m &= m - 1) {
        int j = low_card(m);
        if (*seen >> j & 1) continue;
        *seen |= 1ULL << j;
        if (match_of[j] < 0 || kuhn(match_of[j], adj, seen, match_of)) { match_of[j] = a; return 1; }
    }
    return 0;
}

/* The most of the seat's cards that can win a trick each, as far as one other seat's cards
 * allow: each trick the seat wins takes a card from every other seat that stays under the
 * winner, so for every other seat a matching of winners to such cards must exist (a
 * relaxation: when the others may or must follow suit is not looked at).  The least over
 * the other seats bounds the seat's tricks from above. */
static int most_winners(const Game *g, const Pos *p) {
    int mine[64], k = 0;
    for (u64 m = p->hands[g->seat]; m; m &= m - 1) {
        int w = low_card(m);
        if (g->high_low && w >= 52 && p->joker_high >= 0 && !joker_is_high(p, w)) continue;  /* low: never wins */
        mine[k++] = w;
    }
    int best = k;
    for (int i = 0; i < g->n && best > 0; i++) {
        if (i == g->seat) continue;
        u64 adj[64];
        for (int a = 0; a < k; a++) adj[a] = stay_under(g, p, p->hands[i], mine[a]);
        int match_of[64];
        for (int j = 0; j < 64; j++) match_of[j] = -1;
        int size = 0;
        for (int a = 0; a < k; a++) {
            u64 seen = 0;
            size += kuhn(a, adj, &seen, match_of);
        }
        if (size < best) best = size;
    }
    return best;
}

/* The fewest tricks the seat can take: each of its trumps wins its trick unless a higher
 * trump of another seat (or a joker that may be declared high) falls on it, and each such
 * card can fall on one trump only. */
static int fewest_winners(const Game *g, const Pos *p) {
    u64 mine = p->hands[g->seat] & g->trump;
    if (!mine) return 0;
    u64 beaters = 0;
    int universal = 0;
    for (int i = 0; i < g->n; i++) {
        if (i == g->seat) continue;
        beaters |= p->hands[i] & g->trump;
        if (g->high_low)
            for (u64 m = p->hands[i] & JOKERS; m; m &= m - 1)
                if (p->joker_high < 0 || joker_is_high(p, low_card(m))) universal++;
    }
    /* Greedy from the seat's highest trump: beat it with the lowest higher trump left. */
    int wins = 0;
    for (u64 m = mine; m; ) {
        int t = high_card(m);
        m &= ~(1ULL << t);
        u64 higher = beaters & ~((2ULL << t) - 1);
        if (higher) beaters &= ~(1ULL << low_card(higher));
        else if (universal > 0) universal--;
        else wins++;
    }
    return wins;
}

/* ----------------------------------------------------------------- search */

/* Order the moves: (card, declaration) pairs in ``cards``/``declares``; ``grow``: the
 * seat wants tricks. */
static int moves_of(const Game *g, const Pos *p, int grow, int *cards, int *declares) {
    u64 moves = legal(g, p);
    int seat = p->turn;
    /* Cards next to each other in a suit with no card in play between them are equal. */
    u64 live = 0;
    for (int i = 0; i < g->n; i++) live |= p->hands[i];
    for (int i = 0; i < p->count; i++) live |= 1ULL << p->trick[i];
    int list[64], k = 0, last = -10;
    for (u64 m = moves; m; m &= m - 1) {
        int c = low_card(m);
        if (last >= 0 && c < 52 && suit_of(last) == suit_of(c)
            && !((g->trump >> last & 1) ^ (g->trump >> c & 1))) {
            u64 between = ((1ULL << c) - 1) & ~((1ULL << (last + 1)) - 1);
            if (!(between & live & ~p->hands[seat])) {
                list[k - 1] = c;   /* keep the highest of the run */
                last = c;
                continue;
            }
        }
        if (last >= 52 && c >= 52 && !g->high_low && !((g->trump >> last & 1) ^ (g->trump >> c & 1))) {
            last = c;          /* own-suit jokers: two equal cards */
            continue;
        }
        last = c;
        list[k++] = c;
    }
    /* Order by strength in this trick: a trump, then a card of the suit led (any card
     * when leading), then a discard. */
    int keys[64];
    for (int i = 0; i < k; i++) {
        int c = list[i];
        int key = rank_of(c);
        if (g->trump >> c & 1) key += 200;
        else if (p->count == 0 || suit_of(c) == p->trick_suit) key += 100;
        keys[i] = key;
        for (int j = i; j > 0 && keys[j - 1] > keys[j]; j--) {
            int t = keys[j]; keys[j] = keys[j - 1]; keys[j - 1] = t;
            t = list[j]; list[j] = list[j - 1]; list[j - 1] = t;
        }
    }
    /* The seat tries strong cards first when it wants tricks, and so do its opponents (to
     * beat it); helpers do the opposite. */
    int high_first = (seat == g->seat || g->mode == FORCE) ? grow : !grow;
    int out = 0;
    for (int i = 0; i < k; i++) {
        int c = high_first ? list[k - 1 - i] : list[i];
        if (g->high_low && c >= 52 && p->joker_high < 0) {
            cards[out] = c; declares[out++] = high_first;
            cards[out] = c; declares[out++] = !high_first;
        } else {
            cards[out] = c; declares[out++] = -1;
        }
    }
    return out;
}

/* Three questions, each answered by the same kind of search (OR at the seat's turn, AND at
 * the others' in FORCE mode; OR everywhere in HELP mode):
 *   AT_LEAST k  -- a final count >= k;
 *   AT_MOST k   -- a final count <= k;
 *   EXACT want  -- for each count of the mask, that count exactly (the result: a mask).
 * At trick boundaries the table keeps, per position, the counts settled for EXACT and the
 * bounds of A (the largest k with AT_LEAST true) and B (the smallest with AT_MOST true);
 * an exact count lies in [B, A]. */
enum { AT_LEAST = 0, AT_MOST = 1, EXACT = 2 };
#ifndef GROW_RULE
#define GROW_RULE ((lo + hi) * g->n >= 2 * p->remaining)
#endif

static u32 search(Game *g, const Pos *p, int question, u32 arg);

static int want_grow(const Game *g, const Pos *p, int question, u32 arg) {
    if (question == AT_LEAST) return 1;
    if (question == AT_MOST) return 0;
    int lo = __builtin_ctz(arg) - p->mine, hi = 31 - __builtin_clz(arg) - p->mine;
    return GROW_RULE;
}

/* Search the moves of the player to act: a mask (EXACT) or 0/1. */
static void try_killers_first(const Game *g, const Pos *p, int k, int *cards, int *declares) {
    int front = 0;
    for (int slot = 0; slot < 2; slot++) {
        int killer = g->killer[p->ply][slot];
        if (killer < 0) continue;
        for (int i = front; i < k; i++) {
            if (cards[i] != killer) continue;
            /* Move it (and a declaration twin right after it) to the front. */
            int c = cards[i], d = declares[i];
            for (int j = i; j > front; j--) { cards[j] = cards[j - 1]; declares[j] = declares[j - 1]; }
            cards[front] = c; declares[front] = d;
            front++;
            break;
        }
    }
}

static inline void remember_killer(Game *g, const Pos *p, int card) {
    if (g->killer[p->ply][0] != card) {
        g->killer[p->ply][1] = g->killer[p->ply][0];
        g->killer[p->ply][0] = (signed char)card;
    }
}

static u32 search_moves(Game *g, const Pos *p, int question, u32 arg) {
    int cards[64], declares[64];
    int k = moves_of(g, p, want_grow(g, p, question, arg), cards, declares);
    try_killers_first(g, p, k, cards, declares);
    int or_node = g->mode == HELP || p->turn == g->seat;
    if (question == EXACT) {
        u32 res = or_node ? 0 : arg;
        for (int i = 0; i < k; i++) {
            Pos child = *p;
            apply_card(g, &child, cards[i], declares[i]);
            if (or_node) {
                res |= search(g, &child, EXACT, arg & ~res);
                if (res == arg) { remember_killer(g, p, cards[i]); break; }
            } else {
                res &= search(g, &child, EXACT, res);
                if (!res) { remember_killer(g, p, cards[i]); break; }
            }
            if (g->aborted) return 0;
        }
        return res;
    }
    for (int i = 0; i < k; i++) {
        Pos child = *p;
        apply_card(g, &child, cards[i], declares[i]);
        u32 r = search(g, &child, question, arg);
        if (g->aborted) return 0;
        if (or_node && r) { remember_killer(g, p, cards[i]); return 1; }
        if (!or_node && !r) { remember_killer(g, p, cards[i]); return 0; }
    }
    return or_node ? 0 : 1;
}

static u32 search(Game *g, const Pos *p, int question, u32 arg) {
    if (g->aborted) return 0;
    int mine = p->mine, left = p->remaining;
    if (question == EXACT) {
        if (!arg) return 0;
        if (left == 0) return arg & (1u << mine);
    } else if (question == AT_LEAST) {
        if (mine >= (int)arg) return 1;
        if (mine + left < (int)arg) return 0;
    } else {
        if (mine > (int)arg) return 0;
        if (mine + left <= (int)arg) return 1;
    }
    g->nodes++;
    if (g->limit > 0 && g->nodes > g->limit) { g->aborted = 1; return 0; }
    if (p->count != 0) return search_moves(g, p, question, arg);
    if (left == 1 && !g->high_low) {
        Pos child = *p;
        while (child.remaining) apply_card(g, &child, low_card(child.hands[child.turn]), -1);
        return search(g, &child, question, arg);
    }
    /* A trick boundary: the table, then the bounds. */
    int joker = g->high_low ? (p->joker_high + 1) * 3 + (p->first_joker < 0 ? 0 : p->first_joker - 51) : 0;
    joker = joker * 2 + p->first_trick;
    Key key;
    make_key(g, p, joker, &key);
    int found;
    Entry *e = find_entry(g, &key, &found);
    Entry fresh;
    if (!found) {
        memset(&fresh, 0, sizeof fresh);
        fresh.key = key;
        int lo = fewest_winners(g, p), hi = most_winners(g, p);
        fresh.alo = fresh.blo = (unsigned char)lo;
        fresh.ahi = fresh.bhi = (unsigned char)hi;
        u32 span = (u32)((((u64)1 << (hi + 1)) - 1) & ~(((u64)1 << lo) - 1));
        fresh.no = ~span;
    } else {
        fresh = *e;
    }
    u32 result;
    int rel = (int)arg - mine;
    if (question == AT_LEAST) {
        if (rel <= fresh.alo) return 1;
        if (rel > fresh.ahi) { result = 0; goto store; }
        result = search_moves(g, p, AT_LEAST, arg);
        if (g->aborted) return 0;
        if (result) fresh.alo = (unsigned char)rel; else fresh.ahi = (unsigned char)(rel - 1);
    } else if (question == AT_MOST) {
        if (rel >= fresh.bhi) return 1;
        if (rel < fresh.blo) { result = 0; goto store; }
        result = search_moves(g, p, AT_MOST, arg);
        if (g->aborted) return 0;
        if (result) fresh.bhi = (unsigned char)rel; else fresh.blo = (unsigned char)(rel + 1);
    } else {
        u32 inside = (u32)((((u64)1 << (fresh.ahi + 1)) - 1) & ~(((u64)1 << fresh.blo) - 1));
        u32 rwant = (arg >> mine) & inside;
        u32 open = rwant & ~(fresh.yes | fresh.no);
        if (open) {
            u32 got = search_moves(g, p, EXACT, open << mine) >> mine;
            if (g->aborted) return 0;
            fresh.yes |= got;
            fresh.no |= open & ~got;
            if (got) {   /* an exact count b is also "at least b" and "at most b" */
                int top = 31 - __builtin_clz(fresh.yes), bottom = __builtin_ctz(fresh.yes);
                if (top > fresh.alo) fresh.alo = (unsigned char)top;
                if (bottom < fresh.bhi) fresh.bhi = (unsigned char)bottom;
            }
        }
        result = (fresh.yes & rwant) << mine;
    }
store:
    if (found || e->generation != generation || e->depth <= left) {
        if (!found) g->stores++;
        fresh.generation = generation;
        fresh.depth = (unsigned char)left;
        *e = fresh;
    }
    return result;
}

/* The counts of ``want`` the seat can force (reach) from the root: first the bounds A and B
 * by AT_LEAST/AT_MOST questions (cheap, and most counts fall outside [B, A]), then EXACT. */
static u32 solve_root(Game *g, const Pos *p, u32 want) {
    if (!want) return 0;
    if (g->mode == FORCE) return search(g, p, EXACT, want);
    int lo_want = __builtin_ctz(want), hi_want = 31 - __builtin_clz(want);
    int a = -1;
    for (int k = lo_want; k <= hi_want; k++) {          /* A: the largest k with AT_LEAST */
        if (!search(g, p, AT_LEAST, (u32)k)) break;
        if (g->aborted) return 0;
        a = k;
    }
    if (g->aborted || a < lo_want) return 0;
    int b = 32;
    for (int k = hi_want; k >= lo_want; k--) {          /* B: the smallest k with AT_MOST */
        if (!search(g, p, AT_MOST, (u32)k)) break;
        if (g->aborted) return 0;
        b = k;
    }
    if (g->aborted || b > a) return 0;
    u32 inside = (u32)((((u64)1 << (a + 1)) - 1) & ~(((u64)1 << b) - 1));
    return search(g, p, EXACT, want & inside);
}

/* ------------------------------------------------------------- the API */

static int parse_masks(PyObject *obj, u64 *out, int max_len, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > max_len) { Py_DECREF(seq); PyErr_Format(PyExc_ValueError, "too many %s", what); return -1; }
    for (Py_ssize_t i = 0; i < len; i++) {
        out[i] = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) { Py_DECREF(seq); return -1; }
    }
    Py_DECREF(seq);
    return (int)len;
}

PyDoc_STRVAR(solve_doc,
"solve(players, hands, trump, must_trump, high_low, leader, trick, mine, remaining, seat,\n"
"      joker_high, first_joker, first_trick, mode, want, limit) -> (mask, nodes)\n\n"
"The final trick counts of ``seat`` among the bits of ``want`` that it can force (mode 0)\n"
"or reach with help (mode 1).  ``trick``: the cards of the trick in progress from\n"
"``leader``; ``mine``: the seat's tricks so far; ``remaining``: tricks not completed;\n"
"``joker_high``: -1, 0 or 1 and ``first_joker``: -1, 52 or 53 (after the trick's cards);\n"
"``first_trick``: no trick of the hand is complete.  ``mask`` is -1 when the\n"
"search passed ``limit`` nodes (0: no limit).");

static PyObject *py_solve(PyObject *self, PyObject *args) {
    int n, must_trump, high_low, leader, mine, remaining, seat, joker_high, first_joker, first_trick, mode;
    unsigned long long trump, want;
    long long limit;
    PyObject *hands_obj, *trick_obj;
    if (!PyArg_ParseTuple(args, "iOKppiOiiiiipiKL", &n, &hands_obj, &trump, &must_trump, &high_low, &leader,
                          &trick_obj, &mine, &remaining, &seat, &joker_high, &first_joker, &first_trick, &mode,
                          &want, &limit))
        return NULL;
    if (n < 2 || n > MAXP) return PyErr_Format(PyExc_ValueError, "players must be 2 to %d", MAXP);
    if (seat < 0 || seat >= n || leader < 0 || leader >= n) return PyErr_Format(PyExc_ValueError, "no such seat");
    if (remaining < 0 || mine < 0 || mine + remaining > MAXT)
        return PyErr_Format(PyExc_ValueError, "at most %d tricks", MAXT);
    if (mode != FORCE && mode != HELP) return PyErr_Format(PyExc_ValueError, "mode must be 0 or 1");
    if (joker_high < -1 || joker_high > 1 || (first_joker != -1 && first_joker != 52 && first_joker != 53))
        return PyErr_Format(PyExc_ValueError, "bad joker state");
    Game g = {0};
    g.n = n; g.seat = seat; g.mode = mode; g.must_trump = must_trump; g.high_low = high_low;
    g.trump = trump; g.limit = limit; g.tt_bits = TT_BITS;
    memset(g.killer, -1, sizeof g.killer);
    Pos p;
    memset(&p, 0, sizeof p);
    if (parse_masks(hands_obj, p.hands, MAXP, "hands") != n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one hand per seat");
        return NULL;
    }
    u64 trick_cards[MAXP];
    int count = parse_masks(trick_obj, trick_cards, MAXP - 1, "trick cards");
    if (count < 0) return NULL;
    if (count >= n) return PyErr_Format(PyExc_ValueError, "a trick in progress has fewer cards than players");
    u64 seen = 0;
    for (int i = 0; i < n; i++) {
        if (p.hands[i] & seen || p.hands[i] >> 54) return PyErr_Format(PyExc_ValueError, "a card is held twice or is no card");
        seen |= p.hands[i];
    }
    p.leader = p.turn = leader;
    p.remaining = remaining;
    p.mine = 0;
    p.trick_suit = -1;
    p.joker_high = joker_high;
    p.first_joker = first_joker;
    p.first_trick = first_trick;
    /* The trick in progress: its cards are played again (a joker among them is already
     * declared in joker_high). */
    for (int i = 0; i < count; i++) {
        int c = (int)trick_cards[i];
        if (trick_cards[i] >= 54 || seen >> c & 1) return PyErr_Format(PyExc_ValueError, "bad trick card");
        if (high_low && c >= 52 && joker_high < 0)
            return PyErr_Format(PyExc_ValueError, "a joker in the trick but no declaration");
        seen |= 1ULL << c;
        p.hands[p.turn] |= 1ULL << c;
        apply_card(&g, &p, c, joker_high);
    }
    if (remaining == 0 && count) return PyErr_Format(PyExc_ValueError, "no trick left to play");
    int cards_each = remaining - (count ? 1 : 0);
    for (int i = 0; i < n; i++) {
        int expected = cards_each + ((count && ((i - leader + n) % n) >= count) ? 1 : 0);
        if (popcount(p.hands[i]) != expected)
            return PyErr_Format(PyExc_ValueError, "seat %d holds %d cards, not %d", i, popcount(p.hands[i]), expected);
    }
    p.mine = mine;
    if (!table) {
        table = PyMem_RawCalloc(TT_SIZE, sizeof(Entry));
        if (!table) return PyErr_NoMemory();
    }
    u32 w = (u32)want;
    u32 result;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(table_lock, WAIT_LOCK);
    generation++;
    if (generation == 0) { memset(table, 0, sizeof(Entry) * TT_SIZE); generation = 1; }
    result = solve_root(&g, &p, w);
    PyThread_release_lock(table_lock);
    Py_END_ALLOW_THREADS
    if (g.aborted) return Py_BuildValue("(iL)", -1, g.nodes);
    return Py_BuildValue("(kL)", (unsigned long)result, g.nodes);
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS, solve_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_solver",
    "The exact open-hand solver of the analysis (see ohhell.analysis.solver).", -1, methods,
};

PyMODINIT_FUNC PyInit__solver(void) {
#if defined(__x86_64__) && defined(__POPCNT__)
    /* Built for processors with the popcnt instruction (setup.py): refuse to load without
     * it, and the analysis uses its pure-Python solver. */
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "this processor has no popcnt instruction");
        return NULL;
    }
#endif
    table_lock = PyThread_allocate_lock();
    if (!table_lock) return PyErr_NoMemory();
    return PyModule_Create(&module);
}
