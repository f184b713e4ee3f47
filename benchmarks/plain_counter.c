/* The plain baseline: count n-queens row by row with column and diagonal
   masks, halving by mirroring the first row, and nothing more. */
#include <stdio.h>
#include <stdlib.h>

static long long solve(int n, unsigned int cols, unsigned int left, unsigned int right, int row) {
    if (row == n) return 1;
    long long total = 0;
    unsigned int full = (1u << n) - 1;
    unsigned int free = full & ~(cols | left | right);
    while (free) {
        unsigned int bit = free & -free;
        free ^= bit;
        total += solve(n, cols | bit, (left | bit) << 1, (right | bit) >> 1, row + 1);
    }
    return total;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 8;
    long long total = 0;
    for (int c = 0; c < n / 2; c++) {
        unsigned int bit = 1u << c;
        total += 2 * solve(n, bit, bit << 1, bit >> 1, 1);
    }
    if (n % 2) {
        unsigned int bit = 1u << (n / 2);
        total += solve(n, bit, bit << 1, bit >> 1, 1);
    }
    printf("%lld\n", total);
    return 0;
}
