/* The compiled search: agnes_teach.solver.search.DepthFirst, step for step, in C.
 *
 * Same state (piles of small ints), same move generator and move order, same
 * do/undo, same pruning (safe moves home, pointless moves, dead-end tests,
 * run moves that lead nowhere, when to deal, shared losses) and the same
 * equivalence of states in the transposition table, so on any position it
 * expands the same states in the same order as the Python search and reports
 * the same verdict, path and node count (tests/test_solver_core.py checks
 * this on a fixed corpus).  Why each reduction keeps the answer is argued in
 * search.py; this file only restates the algorithm.
 *
 * What differs is storage: the tables keep a 128-bit hash of each state,
 * updated move by move (state_hash), instead of its key, and have a fixed
 * maximum size (a search that fills its table stops and the caller answers
 * unknown).  Two different states share a hash with probability about
 * n^2 / 2^128 for n stored states (below 1e-23 for n = 1e8), the only way
 * this file can differ from the reference.
 *
 * Everything about the profile arrives as tables computed by fast.Rules, so
 * this file reads no profile and decides no rule of its own.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NCARDS 52
#define MAXPILES 16
#define MAXDEALS 8
#define MAXMOVES 1024
#define HOME (-1)
enum { TAIL = 0, STACK = 1, RETURN = 2, DEAL = 3 };

typedef struct { int8_t kind, src, depth, dest, card, count; } Move;
/* flag: the state's deal permission (see enter); forced: the frame holds one forced move;
 * upgrade: the frame adds the deal to a state stored without the permission; stored: the state is in
 * the table (and on the stack of open states); ha, hb: the hash of the frame's state. */
typedef struct {
    size_t start, end, idx;
    int flag, forced, upgrade, stored;
    uint64_t ha, hb;
    uint32_t order, low; /* Tarjan: the frame's preorder number, and the least one it reaches still open */
    size_t tbase;        /* the height of the stack of open states when the frame was pushed */
} Frame;

/* States proved lost, shared by the searches of one solve (search.py, "Shared losses"): open
 * addressing over the same 128-bit hashes as the table, bit 1 = proved with the deal permission.
 * It grows by doubling up to max_slots (so a quick solve touches little memory); past half of
 * that, nothing more is added. */
typedef struct { uint64_t *t; size_t slots, count, max_slots; } Lost;
typedef struct { int col, lead, split; } Left;

typedef struct {
    /* rules */
    uint8_t on[NCARDS * NCARDS];   /* on[c * NCARDS + t]: c may be laid on t */
    uint8_t link[NCARDS * NCARDS]; /* link[c * NCARDS + t]: c on t continues a run (a restriction may
                                      narrow one table and not the other) */
    uint8_t rel[NCARDS], suit[NCARDS], empty_ok[NCARDS];
    uint8_t hosts[NCARDS][NCARDS], nhosts[NCARDS];
    uint8_t guests[NCARDS][NCARDS], nguests[NCARDS];
    int whole, fret, ncols, nstacks, ndeals, anywhere_home;
    uint8_t stack_home[MAXPILES], stack_tag[MAXPILES];
    uint8_t deal_n[MAXDEALS], deal_to[MAXDEALS][MAXPILES];
    uint8_t live_n[MAXDEALS + 1], live[MAXDEALS + 1][MAXPILES];
    uint8_t free_n[MAXDEALS + 1], free_[MAXDEALS + 1][MAXPILES];
    uint8_t card_at[4][13];
    int stock_left[MAXDEALS + 1];
    /* state */
    uint8_t col[MAXPILES][NCARDS];
    int clen[MAXPILES];
    uint8_t stk[MAXPILES][NCARDS];
    int slen[MAXPILES];
    int found[4];
    uint8_t stock[NCARDS];
    int nstock, deals_done, home;
    uint64_t cha[MAXPILES], chb[MAXPILES], sha[MAXPILES], shb[MAXPILES]; /* the piles' hash sums */
    /* search */
    int prune, deal_first, deal_timing, reverse, store_forced, tight_lookahead, split_home_only;
    uint64_t seed; /* 0: the fixed order; else the state of a xorshift generator shuffling each bucket */
    uint32_t covers[MAXDEALS + 1]; /* [d]: the stacks deal d lands on, as bits */
    Lost *lost; /* NULL: nothing shared */
    uint64_t cur_a, cur_b; /* the hash of the state being entered */
    Move *mstack; size_t mcap, mtop;
    Frame *frames; size_t fcap, ftop;
    Move *path; size_t pcap, plen;
    uint64_t *table; size_t tslots, tcount, tmax_slots, free_slot;
    uint32_t *torder; /* per slot: the preorder number of the state stored there */
    uint64_t *open; size_t nopen, open_cap; /* Tarjan's stack: the hashes of stored states not yet proved */
    uint32_t counter;
    long long nodes;
    int result; /* -1 running, 0 lost, 1 won, 2 table full */
    int oom;
} Search;

/* ------------------------------------------------------------------ memory */

static int grow(void **buf, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 256;
    while (n < need) n *= 2;
    void *p = realloc(*buf, n * size);
    if (!p) return -1;
    *buf = p;
    *cap = n;
    return 0;
}

/* ------------------------------------------------------------------ hashing */

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* Bit 1 of a stored second word is the state's deal permission (bit 0 marks a used slot). */
#define FLAG_BIT 2ULL
#define CLOSED_BIT 4ULL /* proved lost by this search (its strongly connected component is done) */
#define HASH_MASK (~(FLAG_BIT | CLOSED_BIT))

/* The state's hash, kept up to date move by move.  Each pile has two 64-bit sums of random words
 * Z[height][card] over its cards (apply/undo add and take away the words of the cards they move),
 * and the state's two hashes combine the piles' sums after a 64-bit mixer: columns as a multiset
 * (a plain sum: the order of the columns does not count) when canonical, else each with its
 * place; reserve piles a later deal lands on with their place; the other stacks as a multiset
 * of (permission to play home, contents); and the number of deals done.  That is the same
 * equivalence as keys.state_key, which FastState.key encodes (search.py, point 1); two
 * different states get the same pair of hashes with odds about 2^-128. */
static uint64_t ZA[NCARDS + 1][NCARDS], ZB[NCARDS + 1][NCARDS];

static void init_zobrist(void) {
    uint64_t x = 0x243f6a8885a308d3ULL; /* splitmix64 from a fixed seed: the same words in every run */
    for (int h = 0; h <= NCARDS; h++)
        for (int c = 0; c < NCARDS; c++) {
            x += 0x9e3779b97f4a7c15ULL; ZA[h][c] = mix64(x);
            x += 0x9e3779b97f4a7c15ULL; ZB[h][c] = mix64(x);
        }
}

static inline void col_add(Search *s, int j, int height, int card) {
    s->cha[j] += ZA[height][card];
    s->chb[j] += ZB[height][card];
}
static inline void col_sub(Search *s, int j, int height, int card) {
    s->cha[j] -= ZA[height][card];
    s->chb[j] -= ZB[height][card];
}
static inline void stk_add(Search *s, int k, int height, int card) {
    s->sha[k] += ZA[height][card];
    s->shb[k] += ZB[height][card];
}
static inline void stk_sub(Search *s, int k, int height, int card) {
    s->sha[k] -= ZA[height][card];
    s->shb[k] -= ZB[height][card];
}

static void init_pile_hashes(Search *s) {
    for (int j = 0; j < s->ncols; j++) {
        s->cha[j] = s->chb[j] = 0;
        for (int i = 0; i < s->clen[j]; i++) col_add(s, j, i, s->col[j][i]);
    }
    for (int k = 0; k < s->nstacks; k++) {
        s->sha[k] = s->shb[k] = 0;
        for (int i = 0; i < s->slen[k]; i++) stk_add(s, k, i, s->stk[k][i]);
    }
}

/* The second half of the hash mixes its own words (ZB) with the same mixer, offset. */
static inline uint64_t mix_b(uint64_t x) { return mix64(x ^ 0xd6e8feb86659fd93ULL); }

/* Salts that give a pile its place (or a stack its permission) in the state's hash. */
#define SALT_COL 0x8f1bbcdcbfa53e0bULL
#define SALT_LIVE 0x5be0cd19137e2179ULL
#define SALT_TAG 0x1f83d9abfb41bd6bULL

static void state_hash(Search *s, uint64_t *a, uint64_t *b) {
    uint64_t ha = 0x6a09e667f3bcc908ULL * (uint64_t)(s->deals_done + 1), hb = mix_b(ha);
    for (int j = 0; j < s->ncols; j++) {
        uint64_t salt = s->prune ? 0 : SALT_COL * (uint64_t)(j + 1);
        ha += mix64(s->cha[j] + salt);
        hb += mix_b(s->chb[j] ^ salt);
    }
    if (!s->prune) {
        for (int k = 0; k < s->nstacks; k++) {
            uint64_t salt = SALT_LIVE * (uint64_t)(k + 1);
            ha += mix64(s->sha[k] + salt);
            hb += mix_b(s->shb[k] ^ salt);
        }
    } else {
        int d = s->deals_done;
        for (int i = 0; i < s->live_n[d]; i++) {
            int k = s->live[d][i];
            uint64_t salt = SALT_LIVE * (uint64_t)(k + 1);
            ha += mix64(s->sha[k] + salt);
            hb += mix_b(s->shb[k] ^ salt);
        }
        for (int i = 0; i < s->free_n[d]; i++) {
            int k = s->free_[d][i];
            uint64_t salt = SALT_TAG * (uint64_t)(s->stack_tag[k] + 1) + 0x3c6ef372fe94f82bULL;
            ha += mix64(s->sha[k] + salt);
            hb += mix_b(s->shb[k] ^ salt);
        }
    }
    *a = ha;
    *b = (hb | 1) & HASH_MASK; /* 0 marks an empty slot; bits 1, 2 are left for the permission, proof */
}

static int table_rehash(Search *s, size_t slots) {
    uint64_t *t = calloc(slots * 2, sizeof(uint64_t));
    uint32_t *o = calloc(slots, sizeof(uint32_t));
    if (!t || !o) { free(t); free(o); return -1; }
    size_t mask = slots - 1;
    for (size_t i = 0; i < s->tslots; i++) {
        uint64_t a = s->table[2 * i], b = s->table[2 * i + 1];
        if (!b) continue;
        size_t j = a & mask;
        while (t[2 * j + 1]) j = (j + 1) & mask;
        t[2 * j] = a;
        t[2 * j + 1] = b;
        o[j] = s->torder[i];
    }
    free(s->table);
    free(s->torder);
    s->table = t;
    s->torder = o;
    s->tslots = slots;
    return 0;
}


/* The slot holding the hash, or NULL (and remember the free slot for table_insert). */
static uint64_t *table_find(Search *s, uint64_t a, uint64_t b) {
    size_t mask = s->tslots - 1, j = a & mask;
    while (s->table[2 * j + 1]) {
        if (s->table[2 * j] == a && (s->table[2 * j + 1] & HASH_MASK) == b) return &s->table[2 * j];
        j = (j + 1) & mask;
    }
    s->free_slot = j;
    return NULL;
}

/* Insert a hash table_find just failed to find; -1 when the table is full.  Load stays at most 1/2. */
static int table_insert(Search *s, uint64_t a, uint64_t b, uint32_t order) {
    size_t j = s->free_slot;
    if ((s->tcount + 1) * 2 > s->tslots) {
        if (s->tslots * 2 > s->tmax_slots || table_rehash(s, s->tslots * 2) < 0) return -1;
        size_t mask = s->tslots - 1;
        j = a & mask;
        while (s->table[2 * j + 1]) j = (j + 1) & mask;
    }
    s->table[2 * j] = a;
    s->table[2 * j + 1] = b;
    s->torder[j] = order;
    s->tcount++;
    return 0;
}

static uint64_t *lost_find(Lost *l, uint64_t a, uint64_t b, size_t *free_at) {
    size_t mask = l->slots - 1, j = a & mask;
    while (l->t[2 * j + 1]) {
        if (l->t[2 * j] == a && (l->t[2 * j + 1] & HASH_MASK) == b) return &l->t[2 * j];
        j = (j + 1) & mask;
    }
    if (free_at) *free_at = j;
    return NULL;
}

/* Proved lost for a visit with (`flag` 1) or without the permission? */
static int lost_covers(Lost *l, uint64_t a, uint64_t b, int flag) {
    uint64_t *e = lost_find(l, a, b, NULL);
    return e && ((e[1] & FLAG_BIT) || !flag);
}

static int lost_grow(Lost *l) {
    size_t slots = l->slots * 2, mask = slots - 1;
    uint64_t *t = calloc(slots * 2, sizeof(uint64_t));
    if (!t) return -1;
    for (size_t i = 0; i < l->slots; i++) {
        if (!l->t[2 * i + 1]) continue;
        size_t j = l->t[2 * i] & mask;
        while (t[2 * j + 1]) j = (j + 1) & mask;
        t[2 * j] = l->t[2 * i];
        t[2 * j + 1] = l->t[2 * i + 1];
    }
    free(l->t);
    l->t = t;
    l->slots = slots;
    return 0;
}

static void lost_add(Lost *l, uint64_t a, uint64_t b, int flag) {
    size_t j;
    uint64_t *e = lost_find(l, a, b, &j);
    if (e) { if (flag) e[1] |= FLAG_BIT; return; }
    if ((l->count + 1) * 2 > l->max_slots) return;
    if ((l->count + 1) * 2 > l->slots) {
        if (lost_grow(l) < 0) return;
        lost_find(l, a, b, &j);
    }
    l->t[2 * j] = a;
    l->t[2 * j + 1] = b | (flag ? FLAG_BIT : 0);
    l->count++;
}

/* ------------------------------------------------------------------ moves */

static inline int run_start(Search *s, int c) {
    const uint8_t *col = s->col[c];
    int i = s->clen[c] - 1;
    while (i > 0 && s->link[col[i] * NCARDS + col[i - 1]]) i--;
    return i;
}

static inline void put(Move *out, int *n, int kind, int src, int depth, int dest, int card, int count) {
    Move m = {(int8_t)kind, (int8_t)src, (int8_t)depth, (int8_t)dest, (int8_t)card, (int8_t)count};
    out[(*n)++] = m;
}

/* Every legal move, in the order of FastState.moves. */
static int gen_moves(Search *s, Move *out) {
    int n = 0, top_col[NCARDS], empties[MAXPILES], ne = 0;
    for (int c = 0; c < NCARDS; c++) top_col[c] = -1;
    for (int j = 0; j < s->ncols; j++) {
        if (s->clen[j]) top_col[s->col[j][s->clen[j] - 1]] = j;
        else empties[ne++] = j;
    }
    for (int i = 0; i < s->ncols; i++) {
        int len = s->clen[i];
        if (!len) continue;
        const uint8_t *col = s->col[i];
        int top = col[len - 1];
        if (s->rel[top] == s->found[s->suit[top]]) put(out, &n, TAIL, i, len - 1, HOME, top, 1);
        int start = len - 1;
        while (start > 0 && s->link[col[start] * NCARDS + col[start - 1]]) start--;
        int stop = s->whole ? start + 1 : len;
        for (int d = start; d < stop; d++) {
            int card = col[d];
            for (int h = 0; h < s->nhosts[card]; h++) {
                int j = top_col[s->hosts[card][h]];
                if (j >= 0 && j != i) put(out, &n, TAIL, i, d, j, card, len - d);
            }
            if (s->empty_ok[card])
                for (int e = 0; e < ne; e++) put(out, &n, TAIL, i, d, empties[e], card, len - d);
        }
    }
    for (int k = 0; k < s->nstacks; k++) {
        if (!s->slen[k]) continue;
        int c = s->stk[k][s->slen[k] - 1];
        if (s->stack_home[k] && s->rel[c] == s->found[s->suit[c]]) put(out, &n, STACK, k, 0, HOME, c, 1);
        for (int h = 0; h < s->nhosts[c]; h++) {
            int j = top_col[s->hosts[c][h]];
            if (j >= 0) put(out, &n, STACK, k, 0, j, c, 1);
        }
        if (s->empty_ok[c])
            for (int e = 0; e < ne; e++) put(out, &n, STACK, k, 0, empties[e], c, 1);
    }
    if (s->fret) {
        for (int su = 0; su < 4; su++) {
            if (!s->found[su]) continue;
            int c = s->card_at[su][s->found[su] - 1];
            for (int h = 0; h < s->nhosts[c]; h++) {
                int j = top_col[s->hosts[c][h]];
                if (j >= 0) put(out, &n, RETURN, su, 0, j, c, 1);
            }
            if (s->empty_ok[c])
                for (int e = 0; e < ne; e++) put(out, &n, RETURN, su, 0, empties[e], c, 1);
        }
    }
    if (s->deals_done < s->ndeals) put(out, &n, DEAL, 0, 0, 0, -1, 0);
    return n;
}

static void apply(Search *s, const Move *m) {
    int card = m->card;
    switch (m->kind) {
    case TAIL:
        if (m->dest == HOME) {
            s->clen[m->src]--;
            col_sub(s, m->src, s->clen[m->src], card);
            s->found[s->suit[card]]++;
            s->home++;
        } else {
            int cnt = s->clen[m->src] - m->depth, base = s->clen[m->dest];
            const uint8_t *run = s->col[m->src] + m->depth;
            for (int o = 0; o < cnt; o++) {
                col_sub(s, m->src, m->depth + o, run[o]);
                col_add(s, m->dest, base + o, run[o]);
            }
            memcpy(s->col[m->dest] + base, run, (size_t)cnt);
            s->clen[m->dest] += cnt;
            s->clen[m->src] = m->depth;
        }
        break;
    case STACK:
        s->slen[m->src]--;
        stk_sub(s, m->src, s->slen[m->src], card);
        if (m->dest == HOME) {
            s->found[s->suit[card]]++;
            s->home++;
        } else {
            col_add(s, m->dest, s->clen[m->dest], card);
            s->col[m->dest][s->clen[m->dest]++] = (uint8_t)card;
        }
        break;
    case RETURN:
        s->found[m->src]--;
        s->home--;
        col_add(s, m->dest, s->clen[m->dest], card);
        s->col[m->dest][s->clen[m->dest]++] = (uint8_t)card;
        break;
    default: {
        int d = s->deals_done, start = s->stock_left[d];
        for (int o = 0; o < s->deal_n[d]; o++) {
            int k = s->deal_to[d][o], c = s->stock[s->nstock - start + o];
            stk_add(s, k, s->slen[k], c);
            s->stk[k][s->slen[k]++] = (uint8_t)c;
        }
        s->deals_done++;
    }
    }
}

static void undo(Search *s, const Move *m) {
    int card = m->card;
    switch (m->kind) {
    case TAIL:
        if (m->dest == HOME) {
            col_add(s, m->src, s->clen[m->src], card);
            s->col[m->src][s->clen[m->src]++] = (uint8_t)card;
            s->found[s->suit[card]]--;
            s->home--;
        } else {
            int cnt = m->count;
            s->clen[m->dest] -= cnt;
            const uint8_t *run = s->col[m->dest] + s->clen[m->dest];
            for (int o = 0; o < cnt; o++) {
                col_sub(s, m->dest, s->clen[m->dest] + o, run[o]);
                col_add(s, m->src, s->clen[m->src] + o, run[o]);
            }
            memcpy(s->col[m->src] + s->clen[m->src], run, (size_t)cnt);
            s->clen[m->src] += cnt;
        }
        break;
    case STACK:
        if (m->dest == HOME) {
            s->found[s->suit[card]]--;
            s->home--;
        } else {
            s->clen[m->dest]--;
            col_sub(s, m->dest, s->clen[m->dest], card);
        }
        stk_add(s, m->src, s->slen[m->src], card);
        s->stk[m->src][s->slen[m->src]++] = (uint8_t)card;
        break;
    case RETURN:
        s->clen[m->dest]--;
        col_sub(s, m->dest, s->clen[m->dest], card);
        s->found[m->src]++;
        s->home++;
        break;
    default: {
        s->deals_done--;
        int d = s->deals_done;
        for (int o = 0; o < s->deal_n[d]; o++) {
            int k = s->deal_to[d][o];
            s->slen[k]--;
            stk_sub(s, k, s->slen[k], s->stk[k][s->slen[k]]);
        }
    }
    }
}

/* ------------------------------------------------------------------ pruning */

static inline int is_home(Search *s, int c) { return s->found[s->suit[c]] > s->rel[c]; }

static int safe_home_move(Search *s, const Move *moves, int n) {
    if (s->fret) return -1;
    for (int i = 0; i < n; i++) {
        if (moves[i].dest != HOME) continue;
        int c = moves[i].card, ok = 1;
        for (int a = 0; a < s->nguests[c] && ok; a++) {
            int g = s->guests[c][a];
            if (is_home(s, g)) continue;
            if (s->anywhere_home && s->found[s->suit[g]] == s->rel[g]) {
                int all = 1;
                for (int b = 0; b < s->nguests[g]; b++)
                    if (!is_home(s, s->guests[g][b])) { all = 0; break; }
                if (all) continue;
            }
            ok = 0;
        }
        if (ok) return i;
    }
    return -1;
}

static int is_dead(Search *s) {
    if (s->fret) return 0;
    uint8_t stuck[NCARDS];
    int any = 0;
    for (int c = 0; c < NCARDS; c++) {
        stuck[c] = 0;
        if (s->found[s->suit[c]] <= s->rel[c] && !s->empty_ok[c]) {
            int all = 1;
            for (int h = 0; h < s->nhosts[c]; h++)
                if (!is_home(s, s->hosts[c][h])) { all = 0; break; }
            stuck[c] = (uint8_t)all;
            any |= all;
        }
    }
    if (!any) {
        int tall = 0;
        for (int k = 0; k < s->nstacks; k++) if (s->slen[k] > 1) tall = 1;
        if (!tall) return 0;
    }
    int blocked[NCARDS];
    const uint8_t *under_p[NCARDS];
    int under_n[NCARDS];
    for (int c = 0; c < NCARDS; c++) { blocked[c] = 0; under_n[c] = 0; under_p[c] = NULL; }
    for (int k = 0; k < s->nstacks; k++) {
        const uint8_t *pile = s->stk[k];
        int above = 0;
        for (int i = s->slen[k] - 1; i >= 0; i--) {
            int c = pile[i];
            blocked[c] = above;
            int st = stuck[c];
            if (!st && i > 0 && !s->empty_ok[c]) {
                st = 1;
                for (int h = 0; h < s->nhosts[c] && st; h++) {
                    int t = s->hosts[c][h];
                    if (is_home(s, t)) continue;
                    int below = 0;
                    for (int q = 0; q < i; q++) if (pile[q] == t) { below = 1; break; }
                    if (!below) st = 0;
                }
            }
            if (st) {
                if (!s->stack_home[k]) return 1;
                above++;
                under_p[c] = pile;
                under_n[c] = i;
            }
        }
    }
    for (int j = 0; j < s->ncols; j++) {
        const uint8_t *col = s->col[j];
        int low = 0;
        for (int i = 0; i < s->clen[j]; i++) {
            int c = col[i];
            if (!stuck[c]) continue;
            if (i == 0 || !stuck[col[i - 1]]) low = i;
            int lo = low - 1 > 0 ? low - 1 : 0;
            under_p[c] = col + lo;
            under_n[c] = i - lo;
            for (int q = lo; q < i; q++) blocked[col[q]]++;
        }
    }
    int nxt[4] = {s->found[0], s->found[1], s->found[2], s->found[3]};
    int moved = 1;
    while (moved) {
        moved = 0;
        for (int su = 0; su < 4; su++) {
            int n = nxt[su];
            while (n < 13) {
                int c = s->card_at[su][n];
                if (blocked[c]) break;
                n++;
                for (int q = 0; q < under_n[c]; q++) blocked[under_p[c][q]]--;
            }
            if (n != nxt[su]) { nxt[su] = n; moved = 1; }
        }
    }
    return !(nxt[0] == 13 && nxt[1] == 13 && nxt[2] == 13 && nxt[3] == 13);
}

typedef struct {
    Search *s;
    uint8_t home[NCARDS], was_home[NCARDS], top[NCARDS], leave[NCARDS], in_stack[NCARDS];
    int above[NCARDS], below[NCARDS];
    uint8_t col_bottom[NCARDS];
    int empty;
    int q[4 * NCARDS + 8], nq;
} Relax;

static void try_home(Relax *r, int c) {
    Search *s = r->s;
    if (r->home[c]) return;
    int n = s->rel[c];
    if ((n == 0 || r->home[s->card_at[s->suit[c]][n - 1]]) && (r->in_stack[c] == 2 ? r->leave[c] : r->top[c])) {
        r->home[c] = 1;
        r->q[r->nq++] = c * 4 + 2;
        if (!r->leave[c]) { r->leave[c] = 1; r->q[r->nq++] = c * 4 + 1; }
    }
}

static void try_leave(Relax *r, int c) {
    Search *s = r->s;
    if (r->leave[c]) return;
    if (!(r->top[c] || (!r->in_stack[c] && r->above[c] >= 0 && s->link[r->above[c] * NCARDS + c]))) return;
    int ok = r->empty && s->empty_ok[c];
    for (int h = 0; h < s->nhosts[c] && !ok; h++) {
        int t = s->hosts[c][h];
        if (r->top[t] && !r->was_home[t]) ok = 1;
    }
    if (ok) { r->leave[c] = 1; r->q[r->nq++] = c * 4 + 1; }
}

static int can_never_finish(Search *s) {
    if (s->fret) return 0;
    Relax rx, *r = &rx;
    r->s = s;
    for (int c = 0; c < NCARDS; c++) {
        r->home[c] = (uint8_t)is_home(s, c);
        r->was_home[c] = r->top[c] = r->leave[c] = r->home[c];
        r->above[c] = r->below[c] = -1;
        r->in_stack[c] = 0;
        r->col_bottom[c] = 0;
    }
    r->empty = 0;
    r->nq = 0;
    for (int j = 0; j < s->ncols; j++) {
        int len = s->clen[j];
        const uint8_t *col = s->col[j];
        if (!len) { r->empty = 1; continue; }
        r->col_bottom[col[0]] = 1;
        for (int i = 0; i + 1 < len; i++) { r->above[col[i]] = col[i + 1]; r->below[col[i + 1]] = col[i]; }
        r->top[col[len - 1]] = 1;
    }
    for (int k = 0; k < s->nstacks; k++) {
        int len = s->slen[k];
        const uint8_t *pile = s->stk[k];
        uint8_t mark = s->stack_home[k] ? 1 : 2;
        for (int i = 0; i < len; i++) {
            r->in_stack[pile[i]] = mark;
            if (i + 1 < len) { r->above[pile[i]] = pile[i + 1]; r->below[pile[i + 1]] = pile[i]; }
        }
        if (len) r->top[pile[len - 1]] = 1;
    }
    for (int i = s->nstock - s->stock_left[s->deals_done]; i < s->nstock; i++) {
        r->top[s->stock[i]] = 1;
        r->in_stack[s->stock[i]] = 1;
    }
    for (int c = 0; c < NCARDS; c++)
        if (!r->was_home[c]) { try_home(r, c); try_leave(r, c); }
    while (r->nq) {
        int item = r->q[--r->nq];
        if (item < 0) {
            for (int c = 0; c < NCARDS; c++) if (s->empty_ok[c]) try_leave(r, c);
            continue;
        }
        int c = item >> 2, ev = item & 3;
        if (ev == 0) {
            try_home(r, c);
            try_leave(r, c);
            for (int g = 0; g < s->nguests[c]; g++) try_leave(r, s->guests[c][g]);
        } else if (ev == 1) {
            int b = r->below[c];
            if (b >= 0) {
                if (!r->top[b]) { r->top[b] = 1; r->q[r->nq++] = b * 4; }
            } else if (r->col_bottom[c] && !r->empty) {
                r->empty = 1;
                r->q[r->nq++] = -1;
            }
            if (r->in_stack[c] == 2) try_home(r, c);
        } else {
            int n = s->rel[c];
            if (n < 12) try_home(r, s->card_at[s->suit[c]][n + 1]);
        }
    }
    for (int c = 0; c < NCARDS; c++) if (!r->home[c]) return 1;
    return 0;
}

static inline int uses(const Left *l, const Move *m) {
    if (m->dest == l->col && m->card != l->lead) return 1;
    return m->kind == TAIL && m->src == l->col && (m->dest == HOME || !l->split);
}

/* search.may_use_after_one_more (the argument is there): after one more run move off another
 * column, could a move use l's column and that column at once?  `lead[c]`: c lies in another
 * column and leads a movable tail after at most one run move there; `top[c]`: c is a top of
 * another column after at most one. */
static int may_use_after_one_more(Search *s, const Left *l) {
    uint8_t lead[NCARDS], top[NCARDS];
    int whole = 0; /* another column is one run: moving it empties that column */
    memset(lead, 0, sizeof lead);
    memset(top, 0, sizeof top);
    for (int j = 0; j < s->ncols; j++) {
        int n = s->clen[j];
        if (j == l->col || !n) continue;
        const uint8_t *col = s->col[j];
        int rs = run_start(s, j), second = 0; /* where the run under the top run begins */
        if (!s->tight_lookahead) rs = 0; /* the looser test, kept to measure: any card of another column */
        if (rs > 0) {
            second = rs - 1;
            while (second > 0 && s->link[col[second] * NCARDS + col[second - 1]]) second--;
        }
        for (int i = second; i < n; i++) lead[col[i]] = 1;
        for (int i = rs > 0 ? rs - 1 : 0; i < n; i++) top[col[i]] = 1;
        if (!rs) whole = 1; /* (loose: as if any column could empty) */
    }
    int len = s->clen[l->col];
    const uint8_t *col = s->col[l->col];
    if (len) {
        int t = col[len - 1];
        for (int a = 0; a < s->nguests[t]; a++) {
            int g = s->guests[t][a];
            if (g != l->lead && lead[g]) return 1;
        }
    } else {
        for (int c = 0; c < NCARDS; c++)
            if (s->empty_ok[c] && c != l->lead && lead[c]) return 1;
    }
    if (l->split || !len) return 0;
    for (int d = run_start(s, l->col); d < len; d++) {
        int y = col[d];
        if (s->empty_ok[y] && whole) return 1;
        for (int h = 0; h < s->nhosts[y]; h++) if (top[s->hosts[y][h]]) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ search */

static int push_frame(Search *s, const Move *moves, int n, int flag, int forced) {
    if (grow((void **)&s->open, &s->open_cap, s->nopen + 1, 2 * sizeof(uint64_t)) < 0) return -1;
    if (grow((void **)&s->mstack, &s->mcap, s->mtop + (size_t)n, sizeof(Move)) < 0) return -1;
    if (grow((void **)&s->frames, &s->fcap, s->ftop + 1, sizeof(Frame)) < 0) return -1;
    memcpy(s->mstack + s->mtop, moves, (size_t)n * sizeof(Move));
    Frame f = {s->mtop, s->mtop + (size_t)n, s->mtop, flag, forced, 0, 0, s->cur_a, s->cur_b,
               s->counter, s->counter, s->nopen};
    s->counter++;
    s->frames[s->ftop++] = f;
    s->mtop += (size_t)n;
    return 0;
}

/* search.order_moves: the same buckets in the same order. */
static int order_moves(Search *s, const Move *moves, int n, int may_deal, Move *out) {
    Move b[6][MAXMOVES];
    int nb[6] = {0, 0, 0, 0, 0, 0};
    enum { B_HOME, B_UNCOVER, B_EMPTY, B_SPLIT, B_RETURN, B_DEAL };
    int first_empty = -1, rs[MAXPILES];
    if (s->prune)
        for (int j = 0; j < s->ncols; j++) if (!s->clen[j]) { first_empty = j; break; }
    for (int j = 0; j < s->ncols; j++) rs[j] = s->clen[j] ? run_start(s, j) : 0;
    for (int i = 0; i < n; i++) {
        const Move *m = &moves[i];
        if (m->dest == HOME) b[B_HOME][nb[B_HOME]++] = *m;
        else if (m->kind == DEAL) { if (may_deal) b[B_DEAL][nb[B_DEAL]++] = *m; }
        else if (m->kind == RETURN) b[B_RETURN][nb[B_RETURN]++] = *m;
        else {
            int empty_dest = s->clen[m->dest] == 0;
            if (empty_dest && s->prune && (m->dest != first_empty || (m->kind == TAIL && m->depth == 0))) continue;
            if (m->kind == STACK || m->depth == 0 || m->depth == rs[m->src]) {
                int k = empty_dest ? B_EMPTY : B_UNCOVER;
                b[k][nb[k]++] = *m;
            } else {
                b[B_SPLIT][nb[B_SPLIT]++] = *m;
            }
        }
    }
    static const int order_last[6] = {B_HOME, B_UNCOVER, B_EMPTY, B_SPLIT, B_RETURN, B_DEAL};
    static const int order_first[6] = {B_DEAL, B_HOME, B_UNCOVER, B_EMPTY, B_SPLIT, B_RETURN};
    const int *order = s->deal_first ? order_first : order_last;
    int k = 0;
    for (int o = 0; o < 6; o++) {
        int bk = order[o];
        if (s->seed) { /* a shuffled order, for restarts */
            for (int i = nb[bk] - 1; i > 0; i--) { /* search.shuffle_bucket, step for step */
                s->seed ^= s->seed << 13;
                s->seed ^= s->seed >> 7;
                s->seed ^= s->seed << 17;
                int j = (int)(s->seed % (uint64_t)(i + 1));
                Move t = b[bk][i]; b[bk][i] = b[bk][j]; b[bk][j] = t;
            }
        }
        if (s->reverse) for (int i = nb[bk] - 1; i >= 0; i--) out[k++] = b[bk][i];
        else {
            memcpy(out + k, b[bk], (size_t)nb[bk] * sizeof(Move));
            k += nb[bk];
        }
    }
    return k;
}

/* Is the next deal one that covers nothing (it lands only on empty piles)?  Then it is forced. */
static int safe_deal(Search *s) {
    if (!s->deal_timing || s->deals_done >= s->ndeals) return 0;
    int d = s->deals_done;
    for (int o = 0; o < s->deal_n[d]; o++) if (s->slen[s->deal_to[d][o]]) return 0;
    return 1;
}

/* The forced move of the state, if any: the first safe move home in the order of gen_moves (column
 * tops, then stack tops), else a deal that covers nothing.  1 when `out` was set. */
static int forced_move(Search *s, Move *out) {
    Move cand[MAXPILES * 2];
    int n = 0;
    for (int i = 0; i < s->ncols; i++) {
        int len = s->clen[i];
        if (!len) continue;
        int c = s->col[i][len - 1];
        if (s->rel[c] == s->found[s->suit[c]]) put(cand, &n, TAIL, i, len - 1, HOME, c, 1);
    }
    for (int k = 0; k < s->nstacks; k++) {
        if (!s->slen[k] || !s->stack_home[k]) continue;
        int c = s->stk[k][s->slen[k] - 1];
        if (s->rel[c] == s->found[s->suit[c]]) put(cand, &n, STACK, k, 0, HOME, c, 1);
    }
    int safe = safe_home_move(s, cand, n);
    if (safe >= 0) { *out = cand[safe]; return 1; }
    if (safe_deal(s)) {
        Move d = {DEAL, 0, 0, 0, -1, 0};
        *out = d;
        return 1;
    }
    return 0;
}

/* Does a move use the column the tableau move `left` came from, now or after one more move (point 5)? */
static int still_useful(Search *s, const Left *left, const Move *moves, int n) {
    if (s->split_home_only && left->split) { /* a restriction of the game: the split card goes home next */
        for (int i = 0; i < n; i++)
            if (moves[i].kind == TAIL && moves[i].src == left->col && moves[i].dest == HOME) return 1;
        return 0;
    }
    for (int i = 0; i < n; i++) if (uses(left, &moves[i])) return 1;
    return may_use_after_one_more(s, left);
}

/* The frame whose move led here reaches a state still open, of preorder `order` (Tarjan's lowlink). */
static inline void reach(Search *s, uint32_t order) {
    if (s->ftop && order < s->frames[s->ftop - 1].low) s->frames[s->ftop - 1].low = order;
}

/* A stored state's frame: it goes on the stack of open states. */
static void mark_stored(Search *s) {
    Frame *f = &s->frames[s->ftop - 1];
    f->stored = 1;
    s->open[2 * s->nopen] = f->ha;
    s->open[2 * s->nopen + 1] = f->hb;
    s->nopen++;
}

/* DepthFirst._enter: 1 when won; otherwise push a frame unless seen, pointless or dead.
 * A state with a forced move (a safe move home, a deal that covers nothing) is stored like any
 * other, unless !store_forced (kept to measure: it does not pay): then it is pushed unstored.
 * `flag` is the deal permission of the state as reached (search.py, point 6): a state
 * stored with the permission covers a visit without it; one stored without it, visited
 * again with it, is expanded once more with the deal. */
static int enter(Search *s, int check_dead, const Left *left, int flag) {
    if (s->home == NCARDS) return 1;
    if (!s->deal_timing || s->deals_done >= s->ndeals) flag = 1;
    uint64_t a, b;
    state_hash(s, &a, &b);
    s->cur_a = a;
    s->cur_b = b;
    if (s->lost && lost_covers(s->lost, a, b, flag)) return 0; /* another search proved it lost */
    Move moves[MAXMOVES];
    int n = -1;
    Move forced;
    if (s->prune && !s->store_forced) {
        if (forced_move(s, &forced)) {
            if (left) {
                n = gen_moves(s, moves);
                if (!still_useful(s, left, moves, n)) return 0;
            }
            s->nodes++;
            if (check_dead && (is_dead(s) || can_never_finish(s))) {
                if (s->lost) lost_add(s->lost, a, b, 1);
                return 0;
            }
            if (push_frame(s, &forced, 1, forced.kind == DEAL ? 1 : flag, 1) < 0) s->oom = 1;
            return 0;
        }
    }
    uint64_t *slot = table_find(s, a, b);
    if (slot && ((slot[1] & FLAG_BIT) || !flag)) {
        if (!(slot[1] & CLOSED_BIT)) reach(s, s->torder[(size_t)(slot - s->table) / 2]); /* still open */
        return 0;
    }
    if (left || slot) {
        n = gen_moves(s, moves);
        if (left && !still_useful(s, left, moves, n)) return 0;
    }
    if (slot) { /* seen without the permission: now the deal too (gen_moves lists it last) */
        size_t at = (size_t)(slot - s->table) / 2;
        uint32_t before = s->torder[at];
        int open = !(slot[1] & CLOSED_BIT);
        slot[1] |= FLAG_BIT;
        s->nodes++;
        int pushed = 1;
        if (s->store_forced && forced_move(s, &forced)) { /* its forced move again, with the permission */
            if (forced.kind != DEAL) { if (push_frame(s, &forced, 1, 1, 1) < 0) s->oom = 1; }
            else pushed = 0;
        } else if (push_frame(s, &moves[n - 1], 1, 1, 0) < 0) s->oom = 1;
        /* The entry now stands for the state with the permission, open again; that is lost only
         * if the state is lost without it too: an edge to that visit while it is open. */
        if (pushed && !s->oom) {
            slot = table_find(s, a, b);
            slot[1] &= ~CLOSED_BIT;
            Frame *f = &s->frames[s->ftop - 1];
            f->upgrade = 1;
            s->torder[at] = f->order;
            if (open && before < f->low) f->low = before;
            mark_stored(s);
        } else if (open) reach(s, before);
        return 0;
    }
    if (table_insert(s, a, b | (flag ? FLAG_BIT : 0), s->counter) < 0) { s->oom = 1; return 0; }
    s->nodes++;
    if (check_dead && (is_dead(s) || can_never_finish(s))) {
        table_find(s, a, b)[1] |= FLAG_BIT | CLOSED_BIT; /* refuted whatever the permission */
        if (s->lost) lost_add(s->lost, a, b, 1);
        return 0;
    }
    if (s->prune && s->store_forced && forced_move(s, &forced)) {
        if (push_frame(s, &forced, 1, forced.kind == DEAL ? 1 : flag, 1) < 0) s->oom = 1;
        else mark_stored(s);
        return 0;
    }
    if (n < 0) n = gen_moves(s, moves);
    Move ordered[MAXMOVES];
    int k = order_moves(s, moves, n, flag, ordered);
    if (push_frame(s, ordered, k, flag, 0) < 0) s->oom = 1;
    else mark_stored(s);
    return 0;
}

/* A frame is done: every move of it refuted.  When it reaches no state opened before it (Tarjan:
 * it is the root of its strongly connected component), it and every state still open above it on
 * the stack of open states are proved lost, each with its permission; else its parent inherits
 * its lowlink (search.py, "Shared losses"). */
static void frame_done(Search *s, const Frame *f) {
    if (s->ftop >= 2 && f->low < s->frames[s->ftop - 2].low) s->frames[s->ftop - 2].low = f->low;
    if (f->low < f->order) return;
    if (!f->stored && s->lost) lost_add(s->lost, f->ha, f->hb, f->flag); /* an upgrade or unstored frame */
    while (s->nopen > f->tbase) {
        s->nopen--;
        uint64_t a = s->open[2 * s->nopen], b = s->open[2 * s->nopen + 1];
        uint64_t *e = table_find(s, a, b);
        if (e) {
            e[1] |= CLOSED_BIT;
            if (s->lost) lost_add(s->lost, a, b, (e[1] & FLAG_BIT) != 0);
        }
    }
}

/* The deal permission of the state a move leads to (search.py, point 6). */
static int child_flag(Search *s, const Move *m, const Frame *f) {
    if (!s->deal_timing || m->kind == DEAL || s->deals_done >= s->ndeals) return 1;
    if (m->kind == STACK && ((s->covers[s->deals_done] >> m->src) & 1)) return 1;
    return f->forced && f->flag && m->dest == HOME;
}

static int path_push(Search *s, const Move *m) {
    if (grow((void **)&s->path, &s->pcap, s->plen + 1, sizeof(Move)) < 0) return -1;
    s->path[s->plen++] = *m;
    return 0;
}

/* DepthFirst.run: -1 when `limit` states were expanded before the end. */
static int run(Search *s, long long limit) {
    if (s->result >= 0) return s->result;
    while (s->ftop) {
        Frame *f = &s->frames[s->ftop - 1];
        if (f->idx < f->end) {
            Move m = s->mstack[f->idx++];
            Frame parent = *f;
            Left left, *lp = NULL;
            if (s->prune && m.kind == TAIL && m.dest >= 0) {
                left.col = m.src;
                left.lead = m.card;
                left.split = m.depth > 0 && s->link[m.card * NCARDS + s->col[m.src][m.depth - 1]];
                lp = &left;
            }
            apply(s, &m);
            if (path_push(s, &m) < 0) { s->result = 2; return 2; }
            size_t height = s->ftop;
            int check = s->prune && (m.dest == HOME || m.kind == DEAL || (lp && !left.split));
            if (enter(s, check, lp, child_flag(s, &m, &parent))) { s->result = 1; return 1; }
            if (s->oom) { s->result = 2; return 2; }
            if (s->ftop == height) undo(s, &s->path[--s->plen]);
            else if (s->nodes >= limit) return -1;
        } else {
            frame_done(s, f);
            s->mtop = f->start;
            s->ftop--;
            if (s->plen) undo(s, &s->path[--s->plen]);
        }
    }
    s->result = 0;
    return 0;
}

/* ------------------------------------------------------------------ Python glue */

static void search_free(PyObject *capsule) {
    Search *s = PyCapsule_GetPointer(capsule, "agnes_teach.solver._core.Search");
    if (!s) return;
    free(s->mstack);
    free(s->frames);
    free(s->path);
    free(s->table);
    free(s->torder);
    free(s->open);
    free(s);
}

static Search *get_search(PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, "agnes_teach.solver._core.Search");
}

static int read_bytes(PyObject *obj, uint8_t *out, Py_ssize_t cap, Py_ssize_t *n, const char *what) {
    char *buf;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(obj, &buf, &len) < 0) return -1;
    if (len > cap) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, at most %zd", what, len, cap);
        return -1;
    }
    memcpy(out, buf, (size_t)len);
    if (n) *n = len;
    return 0;
}

static int read_piles(PyObject *list, uint8_t piles[][NCARDS], int *lens, int *count, const char *what) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) > MAXPILES) {
        PyErr_Format(PyExc_ValueError, "%s: a list of at most %d bytes objects", what, MAXPILES);
        return -1;
    }
    *count = (int)PyList_GET_SIZE(list);
    for (int i = 0; i < *count; i++) {
        Py_ssize_t n;
        if (read_bytes(PyList_GET_ITEM(list, i), piles[i], NCARDS, &n, what) < 0) return -1;
        lens[i] = (int)n;
    }
    return 0;
}

/* Fill the rules and the state of `s` (zeroed) from Python:
 *   tables = (on, link, rel, suit, empty_ok, whole, fret, stack_home, stack_tag, deals, live, free, card_at)
 *   state  = (cols, stacks, found, stock, deals_done)
 * 0, or -1 with a Python error set. */
static int load_game(Search *s, PyObject *tables, PyObject *state) {
    PyObject *on, *link, *rel, *suit, *empty_ok, *stack_home, *stack_tag, *deals, *live, *free_l, *card_at;
    int whole, fret;
    if (!PyTuple_Check(tables) || !PyTuple_Check(state)) {
        PyErr_SetString(PyExc_TypeError, "tables and state: tuples");
        return -1;
    }
    if (!PyArg_ParseTuple(tables, "SSSSSppSSO!O!O!S", &on, &link, &rel, &suit, &empty_ok, &whole, &fret, &stack_home,
                          &stack_tag, &PyList_Type, &deals, &PyList_Type, &live, &PyList_Type, &free_l, &card_at))
        return -1;
    PyObject *cols, *stacks, *found, *stock;
    int deals_done;
    if (!PyArg_ParseTuple(state, "O!O!O!Si", &PyList_Type, &cols, &PyList_Type, &stacks, &PyTuple_Type, &found,
                          &stock, &deals_done))
        return -1;
    Py_ssize_t n;
    int tmp[MAXPILES], cnt;
    uint8_t tmp_piles[MAXDEALS + 1][NCARDS];
    if (read_bytes(on, s->on, NCARDS * NCARDS, NULL, "on") < 0
        || read_bytes(link, s->link, NCARDS * NCARDS, NULL, "link") < 0 || read_bytes(rel, s->rel, NCARDS, NULL, "rel") < 0
        || read_bytes(suit, s->suit, NCARDS, NULL, "suit") < 0
        || read_bytes(empty_ok, s->empty_ok, NCARDS, NULL, "empty_ok") < 0
        || read_bytes(stack_home, s->stack_home, MAXPILES, &n, "stack_home") < 0)
        goto fail;
    s->nstacks = (int)n;
    if (read_bytes(stack_tag, s->stack_tag, MAXPILES, NULL, "stack_tag") < 0) goto fail;
    {
        uint8_t flat[52];
        if (read_bytes(card_at, flat, 52, NULL, "card_at") < 0) goto fail;
        for (int su = 0; su < 4; su++) for (int r = 0; r < 13; r++) s->card_at[su][r] = flat[su * 13 + r];
    }
    if (PyList_GET_SIZE(deals) > MAXDEALS || PyList_GET_SIZE(live) != PyList_GET_SIZE(deals) + 1
        || PyList_GET_SIZE(free_l) != PyList_GET_SIZE(deals) + 1) {
        PyErr_SetString(PyExc_ValueError, "deals/live/free: inconsistent lengths");
        goto fail;
    }
    if (read_piles(deals, tmp_piles, tmp, &cnt, "deals") < 0) goto fail;
    s->ndeals = cnt;
    for (int d = 0; d < cnt; d++) { s->deal_n[d] = (uint8_t)tmp[d]; memcpy(s->deal_to[d], tmp_piles[d], MAXPILES); }
    if (read_piles(live, tmp_piles, tmp, &cnt, "live") < 0) goto fail;
    for (int d = 0; d < cnt; d++) { s->live_n[d] = (uint8_t)tmp[d]; memcpy(s->live[d], tmp_piles[d], MAXPILES); }
    if (read_piles(free_l, tmp_piles, tmp, &cnt, "free") < 0) goto fail;
    for (int d = 0; d < cnt; d++) { s->free_n[d] = (uint8_t)tmp[d]; memcpy(s->free_[d], tmp_piles[d], MAXPILES); }
    s->whole = whole;
    s->fret = fret;
    s->anywhere_home = 1;
    for (int k = 0; k < s->nstacks; k++) if (!s->stack_home[k]) s->anywhere_home = 0;
    for (int c = 0; c < NCARDS; c++) {
        for (int t = 0; t < NCARDS; t++) {
            if (s->on[c * NCARDS + t]) s->hosts[c][s->nhosts[c]++] = (uint8_t)t;
            if (s->on[t * NCARDS + c]) s->guests[c][s->nguests[c]++] = (uint8_t)t;
        }
    }
    if (read_piles(cols, s->col, s->clen, &s->ncols, "cols") < 0) goto fail;
    if (read_piles(stacks, s->stk, s->slen, &cnt, "stacks") < 0) goto fail;
    if (cnt != s->nstacks) {
        PyErr_SetString(PyExc_ValueError, "stacks: one per stack_home entry");
        goto fail;
    }
    if (PyTuple_GET_SIZE(found) != 4) {
        PyErr_SetString(PyExc_ValueError, "found: four counts");
        goto fail;
    }
    s->home = 0;
    for (int su = 0; su < 4; su++) {
        s->found[su] = (int)PyLong_AsLong(PyTuple_GET_ITEM(found, su));
        s->home += s->found[su];
    }
    if (PyErr_Occurred()) goto fail;
    if (read_bytes(stock, s->stock, NCARDS, &n, "stock") < 0) goto fail;
    s->nstock = (int)n;
    if (deals_done < 0 || deals_done > s->ndeals) {
        PyErr_SetString(PyExc_ValueError, "deals_done out of range");
        goto fail;
    }
    s->deals_done = deals_done;
    for (int d = 0; d <= s->ndeals; d++) {
        int left = 0;
        for (int e = d; e < s->ndeals; e++) left += s->deal_n[e];
        s->stock_left[d] = left;
    }
    return 0;
fail:
    return -1;
}

/* new(tables, state, prune, deal_first, deal_timing, reverse, store_forced, tight_lookahead,
 *     split_home_only, seed, max_slots, lost) -> search handle (tables and state: load_game). */
static PyObject *core_new(PyObject *self, PyObject *args) {
    PyObject *tables, *state;
    int prune, deal_first, deal_timing, reverse, store_forced, tight_lookahead, split_home_only;
    unsigned long long seed;
    long long max_slots;
    PyObject *lost_obj;
    if (!PyArg_ParseTuple(args, "O!O!pppppppKLO", &PyTuple_Type, &tables, &PyTuple_Type, &state, &prune,
                          &deal_first, &deal_timing, &reverse, &store_forced, &tight_lookahead,
                          &split_home_only, &seed, &max_slots, &lost_obj))
        return NULL;
    Lost *lost = NULL;
    if (lost_obj != Py_None) {
        lost = PyCapsule_GetPointer(lost_obj, "agnes_teach.solver._core.Lost");
        if (!lost) return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    if (load_game(s, tables, state) < 0) goto fail;
    s->prune = prune;
    s->deal_first = deal_first;
    s->deal_timing = prune && deal_timing;
    s->reverse = reverse;
    s->store_forced = store_forced;
    s->tight_lookahead = tight_lookahead;
    s->split_home_only = prune && split_home_only;
    s->lost = prune ? lost : NULL; /* the caller keeps the capsule alive as long as the search */
    s->seed = seed;
    s->tmax_slots = 1024;
    while (s->tmax_slots * 2 <= (size_t)max_slots) s->tmax_slots *= 2;
    s->tslots = 1024;
    s->table = calloc(s->tslots * 2, sizeof(uint64_t));
    s->torder = calloc(s->tslots, sizeof(uint32_t));
    if (!s->table || !s->torder) { PyErr_NoMemory(); goto fail; }
    s->result = -1;
    for (int d = 0; d < s->ndeals; d++)
        for (int o = 0; o < s->deal_n[d]; o++) s->covers[d] |= 1u << s->deal_to[d][o];
    init_pile_hashes(s);
    if (enter(s, prune, NULL, 1)) s->result = 1;
    else if (s->oom) s->result = 2;
    else if (!s->ftop) s->result = 0;
    PyObject *capsule = PyCapsule_New(s, "agnes_teach.solver._core.Search", search_free);
    if (!capsule) goto fail;
    return capsule;
fail:
    free(s->table);
    free(s->torder);
    free(s->mstack);
    free(s->frames);
    free(s->path);
    free(s);
    return NULL;
}

static void lost_free(PyObject *capsule) {
    Lost *l = PyCapsule_GetPointer(capsule, "agnes_teach.solver._core.Lost");
    if (!l) return;
    free(l->t);
    free(l);
}

/* lost_table(slots) -> a table of proved-lost states to share between searches. */
static PyObject *core_lost_table(PyObject *self, PyObject *args) {
    long long want;
    if (!PyArg_ParseTuple(args, "L", &want)) return NULL;
    size_t max_slots = 1024;
    while (max_slots * 2 <= (size_t)want) max_slots *= 2;
    Lost *l = calloc(1, sizeof(Lost));
    if (!l) return PyErr_NoMemory();
    l->slots = 1024;
    l->max_slots = max_slots;
    l->t = calloc(l->slots * 2, sizeof(uint64_t));
    if (!l->t) { free(l); return PyErr_NoMemory(); }
    PyObject *capsule = PyCapsule_New(l, "agnes_teach.solver._core.Lost", lost_free);
    if (!capsule) { free(l->t); free(l); }
    return capsule;
}

static PyObject *core_lost_count(PyObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Lost *l = PyCapsule_GetPointer(capsule, "agnes_teach.solver._core.Lost");
    if (!l) return NULL;
    return PyLong_FromSize_t(l->count);
}

static PyObject *core_run(PyObject *self, PyObject *args) {
    PyObject *capsule;
    long long limit;
    if (!PyArg_ParseTuple(args, "OL", &capsule, &limit)) return NULL;
    Search *s = get_search(capsule);
    if (!s) return NULL;
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = run(s, limit);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(r);
}

static PyObject *core_info(PyObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Search *s = get_search(capsule);
    if (!s) return NULL;
    return Py_BuildValue("(iLnn)", s->result, s->nodes, (Py_ssize_t)s->tcount,
                         (Py_ssize_t)(s->tslots * 16 + s->mcap * sizeof(Move) + s->fcap * sizeof(Frame)));
}

static PyObject *core_path(PyObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Search *s = get_search(capsule);
    if (!s) return NULL;
    PyObject *out = PyList_New((Py_ssize_t)s->plen);
    if (!out) return NULL;
    for (size_t i = 0; i < s->plen; i++) {
        const Move *m = &s->path[i];
        PyObject *t = Py_BuildValue("(iiiiii)", m->kind, m->src, m->depth, m->dest, m->card, m->count);
        if (!t) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, (Py_ssize_t)i, t);
    }
    return out;
}

/* ------------------------------------------------------------------ random games
 *
 * A game played at random from one state, move for move the game players.py plays with
 * Python's random.Random: the legal moves in engine.legal_moves's order (gen_moves, sorted as
 * that function sorts them), one picked as random.Random.choice picks (getrandbits of the
 * bit length of the count, drawn again while too large), from the Mersenne Twister state that
 * random.Random.getstate gives.  The search's tables and pruning are not used. */

#define MT_N 624
#define MT_M 397

typedef struct {
    Search g;
    uint32_t mt[MT_N];
    int mti;
} Walker;

static uint32_t mt_next(Walker *w) {
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t y;
    if (w->mti >= MT_N) {
        int k;
        for (k = 0; k < MT_N - MT_M; k++) {
            y = (w->mt[k] & 0x80000000u) | (w->mt[k + 1] & 0x7fffffffu);
            w->mt[k] = w->mt[k + MT_M] ^ (y >> 1) ^ mag01[y & 1u];
        }
        for (; k < MT_N - 1; k++) {
            y = (w->mt[k] & 0x80000000u) | (w->mt[k + 1] & 0x7fffffffu);
            w->mt[k] = w->mt[k + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1u];
        }
        y = (w->mt[MT_N - 1] & 0x80000000u) | (w->mt[0] & 0x7fffffffu);
        w->mt[MT_N - 1] = w->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1u];
        w->mti = 0;
    }
    y = w->mt[w->mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

/* random.Random._randbelow_with_getrandbits(n), n >= 1 (getrandbits(k) for k <= 32 is the next
 * word's top k bits). */
static int below(Walker *w, int n) {
    int k = 0;
    while ((n >> k) != 0) k++;
    uint32_t r;
    do r = mt_next(w) >> (32 - k); while (r >= (uint32_t)n);
    return (int)r;
}

/* The order of engine.legal_moves: the moves as tuples (kind, source, depth, dest, card, count). */
static int move_cmp(const Move *a, const Move *b) {
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->src != b->src) return a->src < b->src ? -1 : 1;
    if (a->depth != b->depth) return a->depth < b->depth ? -1 : 1;
    if (a->dest != b->dest) return a->dest < b->dest ? -1 : 1;
    if (a->card != b->card) return a->card < b->card ? -1 : 1;
    if (a->count != b->count) return a->count < b->count ? -1 : 1;
    return 0;
}

static void sort_moves(Move *m, int n) {
    for (int i = 1; i < n; i++) {
        Move x = m[i];
        int j = i - 1;
        while (j >= 0 && move_cmp(&m[j], &x) > 0) { m[j + 1] = m[j]; j--; }
        m[j + 1] = x;
    }
}

static void walker_free(PyObject *capsule) {
    Walker *w = PyCapsule_GetPointer(capsule, "agnes_teach.solver._core.Walker");
    free(w);
}

static Walker *get_walker(PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, "agnes_teach.solver._core.Walker");
}

/* walker(tables, state, mt) -> handle: a game from `state` (as new), its generator's state `mt`
 * (random.Random.getstate()[1]: 624 words and the index). */
static PyObject *core_walker(PyObject *self, PyObject *args) {
    PyObject *tables, *state, *mt;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyTuple_Type, &tables, &PyTuple_Type, &state, &PyTuple_Type, &mt))
        return NULL;
    if (PyTuple_GET_SIZE(mt) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "mt: 625 numbers (random.Random.getstate()[1])");
        return NULL;
    }
    Walker *w = calloc(1, sizeof(Walker));
    if (!w) return PyErr_NoMemory();
    if (load_game(&w->g, tables, state) < 0) { free(w); return NULL; }
    for (int i = 0; i < MT_N; i++) w->mt[i] = (uint32_t)PyLong_AsUnsignedLong(PyTuple_GET_ITEM(mt, i));
    w->mti = (int)PyLong_AsLong(PyTuple_GET_ITEM(mt, MT_N));
    if (PyErr_Occurred() || w->mti < 0 || w->mti > MT_N) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "mt: index out of range");
        free(w);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(w, "agnes_teach.solver._core.Walker", walker_free);
    if (!capsule) free(w);
    return capsule;
}

/* walk(handle, steps, greedy) -> (moves made, end): at most `steps` moves at random (greedy: a
 * move home whenever there is one); end 1 when the game is won (before a move, or after the
 * last), 2 when there is no legal move, else 0. */
static PyObject *core_walk(PyObject *self, PyObject *args) {
    PyObject *capsule;
    long long steps;
    int greedy;
    if (!PyArg_ParseTuple(args, "OLp", &capsule, &steps, &greedy)) return NULL;
    Walker *w = get_walker(capsule);
    if (!w) return NULL;
    Search *s = &w->g;
    Move moves[MAXMOVES], home[MAXMOVES];
    long long made = 0;
    int end = 0;
    for (; made < steps; made++) {
        if (s->home == NCARDS) { end = 1; break; }
        int n = gen_moves(s, moves);
        if (!n) { end = 2; break; }
        sort_moves(moves, n);
        const Move *pick;
        int nh = 0;
        if (greedy)
            for (int i = 0; i < n; i++) if (moves[i].dest == HOME && moves[i].kind != DEAL) home[nh++] = moves[i];
        if (nh) pick = &home[below(w, nh)];
        else pick = &moves[below(w, n)];
        Move m = *pick;
        apply(s, &m);
    }
    if (!end && s->home == NCARDS) end = 1;
    return Py_BuildValue("(Li)", made, end);
}

/* walker_state(handle) -> (cols, stacks, found, deals_done): the game's state now. */
static PyObject *core_walker_state(PyObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Walker *w = get_walker(capsule);
    if (!w) return NULL;
    Search *s = &w->g;
    PyObject *cols = PyList_New(s->ncols), *stacks = PyList_New(s->nstacks);
    if (!cols || !stacks) { Py_XDECREF(cols); Py_XDECREF(stacks); return NULL; }
    for (int j = 0; j < s->ncols; j++) {
        PyObject *b = PyBytes_FromStringAndSize((const char *)s->col[j], s->clen[j]);
        if (!b) { Py_DECREF(cols); Py_DECREF(stacks); return NULL; }
        PyList_SET_ITEM(cols, j, b);
    }
    for (int k = 0; k < s->nstacks; k++) {
        PyObject *b = PyBytes_FromStringAndSize((const char *)s->stk[k], s->slen[k]);
        if (!b) { Py_DECREF(cols); Py_DECREF(stacks); return NULL; }
        PyList_SET_ITEM(stacks, k, b);
    }
    return Py_BuildValue("(NN(iiii)i)", cols, stacks, s->found[0], s->found[1], s->found[2], s->found[3],
                         s->deals_done);
}

static PyMethodDef core_methods[] = {
    {"new", core_new, METH_VARARGS,
     "new(tables, state, prune, deal_first, deal_timing, reverse, store_forced, tight_lookahead, split_home_only, "
     "seed, max_slots, "
     "lost) -> search handle"},
    {"lost_table", core_lost_table, METH_VARARGS, "lost_table(slots) -> a shared table of proved-lost states"},
    {"lost_count", core_lost_count, METH_VARARGS, "lost_count(table) -> states in it"},
    {"run", core_run, METH_VARARGS, "run(handle, limit) -> 1 won, 0 lost, -1 limit reached, 2 table full"},
    {"info", core_info, METH_VARARGS, "info(handle) -> (result, nodes, stored states, bytes)"},
    {"path", core_path, METH_VARARGS, "path(handle) -> the moves from the root to the current state"},
    {"walker", core_walker, METH_VARARGS, "walker(tables, state, mt) -> a game played at random from state"},
    {"walk", core_walk, METH_VARARGS, "walk(handle, steps, greedy) -> (moves made, 0 / 1 won / 2 no move)"},
    {"walker_state", core_walker_state, METH_VARARGS, "walker_state(handle) -> (cols, stacks, found, deals_done)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "The compiled depth-first search (see search.py for the algorithm).", -1,
    core_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    init_zobrist();
    return PyModule_Create(&core_module);
}
