/* test_random_lh.c - test_random.c with a hash index on every list of 2 entries or more that a
   batch touches (DG__LH_MIN 2 instead of 256, DG__LH_SCANS 1: made at the first batch instead
   of the second), so that the index (dyngraph.h, >>lhash) is kept
   through every mutation, page size and configuration of the differential test; dg_validate,
   run after every step, checks each index against its list. Cases as in test_random.c. */
#define DG__LH_MIN 2
#define DG__LH_SCANS 1
#define TR_NAME "test_random_lh"
#include "test_random.c"
