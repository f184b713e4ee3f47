/*
 * line_search.c: an independent branch and bound that refutes "at least W white
 * and at least B black peaceable queens on the n x n board" (or finds such a
 * placement), or counts the placements of exactly W and B. It shares no code
 * with chessplace; results/crosscheck_search.py and crosscheck_count.py
 * compile it, hand it the chunks of the search and check what it answers.
 *
 * The method. Colour every line (n ranks, n files, 2n-1 diagonals and 2n-1
 * anti-diagonals) white or black. In a peaceable placement a line never holds
 * queens of both colours, so every placement agrees with some colouring: a
 * line with queens takes their colour, an empty one either. A square may hold
 * a white queen only if none of its four lines is black ("possibly white"),
 * a black one only if none is white.
 *
 * Bounds at a node (some lines coloured, the others open). Let pw(l), pb(l)
 * be the possibly white and possibly black squares of line l under the
 * colours so far. A placement that agrees with a completion of the node has,
 * in each family of parallel lines (every square lies on exactly one line of
 * a family), white <= the sum of pw(l) over the lines the completion makes
 * white and black <= the sum of pb(l) over those it makes black. So if no
 * fractional choice (each open line giving x of its pw to white and 1 - x of
 * its pb to black) reaches W and B, no placement below the node does: the
 * family bound, decided exactly by the greedy fractional knapsack. And white
 * queens sit on white ranks x white files: with a white ranks and c white
 * files in the end, white <= a c and black <= (n - a)(n - c); the product
 * bound asks for some a, c the colours so far allow that reach W and B.
 *
 * The search colours the ranks and files first, in a fixed order (the edges
 * inward, rank and file in turn); the chunk word given on standard input
 * colours the first of them. Only the rank and file colourings that are the
 * smallest of their images under the 8 symmetries of the square (and, when
 * W = B, under the colour swap too) are searched, comparing the lines in the
 * order they are coloured; a node is cut as soon as some image of every
 * colouring below it is smaller. A placement's image under a symmetry is a
 * placement with the same counts (colours swapped under the swap), so the
 * smallest image of every placement's rank and file colours is searched.
 * Then it picks an open diagonal line with
 * pw > 0 and pb > 0 and tries both colours (which one it picks changes the work,
 * never the answer: see pick_diagonal). An open line with pw = 0 can be
 * coloured black with no loss (every placement that agrees with the node has
 * no white queen on it, so it agrees with black too), and with pb = 0 white:
 * such lines are never branched on. When no open line has both, colouring
 * each open line by its one useful colour gives every possibly white square
 * white and every possibly black square black, and the bounds are exact:
 * if they still reach W and B, that placement is printed.
 *
 * Counting (a fourth argument "count"): every placement of exactly W white and
 * B black is counted once, at its canonical colouring: a line with queens takes
 * their colour, an empty line is black. So a white line must hold a white
 * queen (once the ranks and files are coloured, a node where one has no
 * possibly white square left is cut, and a diagonal line with none is coloured
 * black without a branch), and at a full colouring the
 * placements are W of the possibly white squares with a queen on every white
 * line, times any B of the possibly black squares. The board's symmetries
 * carry canonical colourings to canonical colourings, so the placements whose
 * rank and file colours lie in one orbit number the orbit's size, 8 over the
 * symmetries that fix the smallest member's colours, times the placements at
 * that member, which is the one searched (the colour swap is left out: it
 * would carry an empty line's black to white).
 *
 * Protocol: arguments n W B [count]; then one chunk word per line on standard
 * input ('1' white, '0' black for the first ranks and files in the search's
 * order); for each, one line out: "refuted WORD NODES CPU_SECONDS", "found WORD
 * PLACEMENT CPU_SECONDS" (PLACEMENT: n*n characters, W, B or ., rank by rank)
 * or, counting, "counted WORD PLACEMENTS NODES CPU_SECONDS". Exit 2 on bad
 * arguments or a bad word; exit 3, with a line on standard error, when a count
 * passes 2^64 - 1.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#define MOST_SIDE 32
#define MOST_LINES (6 * MOST_SIDE)
#define OPEN 0
#define WHITE 1
#define BLACK 2

static int side, want_white, want_black, colour_swap;
static int line_count, family_start[5];
static int lines_of[MOST_SIDE * MOST_SIDE][4];
static int squares_on[MOST_LINES][MOST_SIDE];
static int length_of[MOST_LINES];
static int order[2 * MOST_SIDE]; /* the ranks and files, in the order coloured */

static int colour[MOST_LINES];
static int white_lines_at[MOST_SIDE * MOST_SIDE], black_lines_at[MOST_SIDE * MOST_SIDE];
static int possibly_white[MOST_LINES], possibly_black[MOST_LINES];
static long long nodes;
static int found;
static int counting;                       /* count placements instead of refuting */
static unsigned long long counted;         /* placements counted in this chunk */
static unsigned long long orbit_size;      /* of the rank and file colours being counted */

static void build_board(void) {
    line_count = 6 * side - 2;
    family_start[0] = 0;                     /* ranks */
    family_start[1] = side;                  /* files */
    family_start[2] = 2 * side;              /* diagonals, rank - file constant */
    family_start[3] = 4 * side - 1;          /* anti-diagonals, rank + file constant */
    family_start[4] = line_count;
    for (int rank = 0; rank < side; rank++)
        for (int file = 0; file < side; file++) {
            int square = rank * side + file;
            lines_of[square][0] = rank;
            lines_of[square][1] = side + file;
            lines_of[square][2] = 2 * side + rank - file + side - 1;
            lines_of[square][3] = 4 * side - 1 + rank + file;
            for (int k = 0; k < 4; k++) {
                int line = lines_of[square][k];
                squares_on[line][length_of[line]++] = square;
            }
        }
    for (int line = 0; line < line_count; line++) {
        possibly_white[line] = length_of[line];
        possibly_black[line] = length_of[line];
    }
    int k = 0;
    for (int i = 0; i < (side + 1) / 2; i++) {
        order[k++] = i;
        order[k++] = side + i;
        if (side - 1 - i != i) {
            order[k++] = side - 1 - i;
            order[k++] = 2 * side - 1 - i;
        }
    }
}

/* A square stops (or, undoing, starts again) being possibly one colour. */
static void square_changes(int square, int *possibly, int by) {
    for (int k = 0; k < 4; k++) possibly[lines_of[square][k]] += by;
}

static void set_colour(int line, int c) {
    colour[line] = c;
    for (int i = 0; i < length_of[line]; i++) {
        int square = squares_on[line][i];
        if (c == WHITE && white_lines_at[square]++ == 0) square_changes(square, possibly_black, -1);
        if (c == BLACK && black_lines_at[square]++ == 0) square_changes(square, possibly_white, -1);
    }
}

static void clear_colour(int line) {
    int c = colour[line];
    colour[line] = OPEN;
    for (int i = 0; i < length_of[line]; i++) {
        int square = squares_on[line][i];
        if (c == WHITE && --white_lines_at[square] == 0) square_changes(square, possibly_black, 1);
        if (c == BLACK && --black_lines_at[square] == 0) square_changes(square, possibly_white, 1);
    }
}

/* The family bound: can the family's lines reach want_white and want_black? An
   open line with room for one colour only gives it that colour at no cost; the
   others (both pw and pb > 0) are sorted by pw / pb, the most white per black
   lost first, and given to white in that order until it reaches want_white (the
   last one in part): the most black any fractional choice leaves. */
static int family_reaches(int family) {
    long long white = 0, black = 0, contested_black = 0;
    int gain[MOST_LINES], loss[MOST_LINES], contested = 0;
    for (int line = family_start[family]; line < family_start[family + 1]; line++) {
        int pw = possibly_white[line], pb = possibly_black[line];
        if (colour[line] == WHITE || (colour[line] == OPEN && pb == 0)) white += pw;
        else if (colour[line] == BLACK || pw == 0) black += pb;
        else {
            int j = contested++;
            while (j > 0 && (long long)gain[j - 1] * pb < (long long)pw * loss[j - 1]) {
                gain[j] = gain[j - 1];
                loss[j] = loss[j - 1];
                j--;
            }
            gain[j] = pw;
            loss[j] = pb;
            contested_black += pb;
        }
    }
    long long need = want_white - white;
    black += contested_black;
    if (need <= 0) return black >= want_black;
    for (int i = 0; i < contested; i++) {
        black -= loss[i];
        if (gain[i] >= need) /* the share need / gain of this line goes white */
            return (black - want_black) * gain[i] + (gain[i] - need) * loss[i] >= 0;
        need -= gain[i];
    }
    return 0;
}

static int product_reaches(void) {
    int white_ranks = 0, black_ranks = 0, white_files = 0, black_files = 0;
    for (int i = 0; i < side; i++) {
        white_ranks += colour[i] == WHITE;
        black_ranks += colour[i] == BLACK;
        white_files += colour[side + i] == WHITE;
        black_files += colour[side + i] == BLACK;
    }
    for (int a = white_ranks; a <= side - black_ranks; a++)
        for (int c = white_files; c <= side - black_files; c++)
            if (a * c >= want_white && (side - a) * (side - c) >= want_black) return 1;
    return 0;
}

static int reaches(void) {
    if (!product_reaches()) return 0;
    for (int family = 0; family < 4; family++)
        if (!family_reaches(family)) return 0;
    return 1;
}

/* The rank or file whose colour each symmetry carries to each rank or file: 8 of
   the square (ranks reversed or not, files reversed or not, transposed or not),
   each with and without the colour swap (the symmetry's number plus 8: the swap is
   applied in smaller_image, not here). */
static int preimage[8][2 * MOST_SIDE];

static void build_symmetries(void) {
    for (int g = 0; g < 8; g++) {
        int reverse_ranks = g & 1, reverse_files = g & 2, transpose = g & 4;
        for (int i = 0; i < side; i++) {
            int rank = reverse_ranks ? side - 1 - i : i;
            int file = side + (reverse_files ? side - 1 - i : i);
            preimage[g][i] = transpose ? file : rank;
            preimage[g][side + i] = transpose ? rank : file;
        }
    }
}

/* Whether some symmetry's image of every colouring below this node is smaller than
   it, comparing the ranks and files in the order they are coloured: the node's
   first `depth` of them are coloured, and a comparison stops at a line whose image
   comes from one not coloured yet. At depth 2n: whether the colouring is not the
   smallest of its images. */
static int smaller_image(int depth) {
    for (int g = 1; g < (colour_swap ? 16 : 8); g++) {
        for (int k = 0; k < depth; k++) {
            int mine = colour[order[k]], theirs = colour[preimage[g & 7][order[k]]];
            if (theirs == OPEN) break;
            if (g & 8) theirs = WHITE + BLACK - theirs;
            if (theirs != mine) {
                if (theirs < mine) return 1;
                break;
            }
        }
    }
    return 0;
}

static char placement[MOST_SIDE * MOST_SIDE + 1];

static void keep_placement(void) {
    found = 1;
    for (int square = 0; square < side * side; square++) {
        int white = black_lines_at[square] == 0, black = white_lines_at[square] == 0;
        placement[square] = white && !black ? 'W' : black && !white ? 'B' : '.';
    }
    placement[side * side] = '\0';
}

/* The open diagonal line to branch on next (-1: none): an anti-diagonal while one is
   left, else a diagonal, and within the family the line with the most room for its
   scarcer colour, then for the other (the first such). Refuting, only lines with
   room for both colours are branched on; counting, every open line is, one with
   no possibly white square (which only black can take) first. The order is a
   matter of speed: against picking across both families by the larger room it
   visits 1.7 to 2.8 times fewer nodes at n = 13 and 14 (measured). */
static int pick_diagonal(void) {
    for (int family = 3; family >= 2; family--) {
        int best = -1;
        long long most = -1;
        for (int line = family_start[family]; line < family_start[family + 1]; line++) {
            int pw = possibly_white[line], pb = possibly_black[line];
            if (colour[line] != OPEN || (!counting && (pw == 0 || pb == 0))) continue;
            long long room = pw < pb ? ((long long)pw << 16) + pb : ((long long)pb << 16) + pw;
            if (counting && pw == 0) room = 1LL << 40;
            if (room > most) {
                most = room;
                best = line;
            }
        }
        if (best >= 0) return best;
    }
    return -1;
}

static void search_diagonals(void) {
    nodes++;
    if (!reaches()) return;
    int best = pick_diagonal();
    if (best < 0) {
        keep_placement();
        return;
    }
    /* first the colour that removes the most, so that a bound fails soonest */
    int first = possibly_white[best] >= possibly_black[best] ? BLACK : WHITE;
    for (int k = 0; k < 2 && !found; k++) {
        set_colour(best, k == 0 ? first : WHITE + BLACK - first);
        search_diagonals();
        clear_colour(best);
    }
}

/* Counting: see the top of the file. */

static int white_line_left_empty(void) {
    for (int line = 0; line < line_count; line++)
        if (colour[line] == WHITE && possibly_white[line] == 0) return 1;
    return 0;
}

/* A count past 2^64 - 1 is not wrapped round: the search says so and stops. */
static void too_many(void) {
    fprintf(stderr, "line_search: more than 2^64 - 1 placements; not counted\n");
    exit(3);
}

static unsigned long long sum(unsigned long long a, unsigned long long b) {
    unsigned long long total;
    if (__builtin_add_overflow(a, b, &total)) too_many();
    return total;
}

static unsigned long long product(unsigned long long a, unsigned long long b) {
    unsigned long long total;
    if (__builtin_mul_overflow(a, b, &total)) too_many();
    return total;
}

/* C(n, k), each step C(n - k + i, i) exact in 128 bits (it is at most C(n, k) times
   n <= 1024) before it is checked against 64. */
static unsigned long long binomial(int n, int k) {
    if (k < 0 || k > n) return 0;
    unsigned __int128 result = 1;
    for (int i = 1; i <= k; i++) {
        result = result * (unsigned)(n - k + i) / (unsigned)i;
        if (result > (unsigned long long)-1) too_many();
    }
    return (unsigned long long)result;
}

static int white_room[MOST_SIDE * MOST_SIDE], white_room_size;
static int white_kept_on[MOST_LINES];

/* The ways to leave out `leave` more of white_room[from..] and still keep a white
   queen on every line that has one of the room's squares. */
static unsigned long long ways_to_leave(int from, int leave) {
    if (leave == 0) return 1;
    unsigned long long ways = 0;
    for (int i = from; i <= white_room_size - leave; i++) {
        int square = white_room[i], last = 0;
        for (int k = 0; k < 4; k++) last |= white_kept_on[lines_of[square][k]] == 1;
        if (last) continue;
        for (int k = 0; k < 4; k++) white_kept_on[lines_of[square][k]]--;
        ways = sum(ways, ways_to_leave(i + 1, leave - 1));
        for (int k = 0; k < 4; k++) white_kept_on[lines_of[square][k]]++;
    }
    return ways;
}

/* The placements whose canonical colouring is this one (every line coloured): W of
   the possibly white squares with a queen on every white line, and any B of the
   possibly black squares. */
static unsigned long long placements_here(void) {
    int black_room = 0;
    white_room_size = 0;
    memset(white_kept_on, 0, sizeof white_kept_on);
    for (int square = 0; square < side * side; square++) {
        if (black_lines_at[square] == 0) {
            white_room[white_room_size++] = square;
            for (int k = 0; k < 4; k++) white_kept_on[lines_of[square][k]]++;
        }
        black_room += white_lines_at[square] == 0;
    }
    if (white_room_size < want_white || white_line_left_empty()) return 0;
    return product(ways_to_leave(0, white_room_size - want_white),
                   binomial(black_room, want_black));
}

static void count_diagonals(void) {
    nodes++;
    if (white_line_left_empty() || !reaches()) return;
    int best = pick_diagonal();
    if (best < 0) {
        counted = sum(counted, product(orbit_size, placements_here()));
        return;
    }
    for (int c = possibly_white[best] ? WHITE : BLACK; c <= BLACK; c++) {
        set_colour(best, c);
        count_diagonals();
        clear_colour(best);
    }
}

/* 8 / the symmetries of the square that fix the rank and file colours. */
static unsigned long long rank_file_orbit(void) {
    int fixing = 0;
    for (int g = 0; g < 8; g++) {
        int i = 0;
        while (i < 2 * side && colour[preimage[g][i]] == colour[i]) i++;
        fixing += i == 2 * side;
    }
    return (unsigned long long)(8 / fixing);
}

static void search_ranks_files(int depth) {
    nodes++;
    if (smaller_image(depth) || !reaches()) return;
    if (depth == 2 * side) {
        if (!counting) search_diagonals();
        else if (!white_line_left_empty()) {
            orbit_size = rank_file_orbit();
            count_diagonals();
        }
        return;
    }
    for (int c = WHITE; c <= BLACK && !found; c++) {
        set_colour(order[depth], c);
        search_ranks_files(depth + 1);
        clear_colour(order[depth]);
    }
}

static double cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static int number(const char *text, int least, int most, int *value) {
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < least || v > most) return 0;
    *value = (int)v;
    return 1;
}

int main(int argc, char **argv) {
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the parent */
#endif
    signal(SIGINT, SIG_IGN);          /* Ctrl-C is the parent's to handle */
    counting = argc == 5 && strcmp(argv[4], "count") == 0;
    if (argc != 4 + counting || !number(argv[1], 1, MOST_SIDE, &side) ||
        !number(argv[2], 0, MOST_SIDE * MOST_SIDE, &want_white) ||
        !number(argv[3], 0, MOST_SIDE * MOST_SIDE, &want_black)) {
        fprintf(stderr, "usage: line_search N W B [count] (1 <= N <= %d, 0 <= W, B <= %d)\n",
                MOST_SIDE, MOST_SIDE * MOST_SIDE);
        return 2;
    }
    colour_swap = want_white == want_black && !counting; /* swap: not canonical */
    build_board();
    build_symmetries();
    char word[4 * MOST_SIDE];
    while (fgets(word, sizeof word, stdin)) {
        size_t length = strcspn(word, "\n");
        word[length] = '\0';
        if (length == 0 || length > (size_t)(2 * side) || strspn(word, "01") != length) {
            fprintf(stderr, "line_search: bad chunk word '%s'\n", word);
            return 2;
        }
        double started = cpu_seconds();
        nodes = 0;
        found = 0;
        counted = 0;
        for (size_t i = 0; i < length; i++) set_colour(order[i], word[i] == '1' ? WHITE : BLACK);
        search_ranks_files((int)length);
        for (size_t i = length; i-- > 0;) clear_colour(order[i]);
        if (counting)
            printf("counted %s %llu %lld %.6f\n", word, counted, nodes, cpu_seconds() - started);
        else if (found)
            printf("found %s %s %.6f\n", word, placement, cpu_seconds() - started);
        else
            printf("refuted %s %lld %.6f\n", word, nodes, cpu_seconds() - started);
        fflush(stdout);
    }
    return 0;
}
