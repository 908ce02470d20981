/* kernels/00_shared.h - constants shared by the host (C, in dyngraph.h) and the kernels
   (OpenCL C): each is written here once. tools/gen_kernels.sh puts this file into
   dyngraph_kernels.cl.h twice: as C code, which dyngraph.h's implementation includes, and at
   the head of every program's source. Only #defines (no types, no functions): both languages
   read them the same way. Names are DG_ plus what they stand for; the host adds nothing. */
#ifndef DG_SHARED_H
#define DG_SHARED_H

/* ---- the page layout (manual section 4), for a page of P int32 entries ----
   [DG_PAGE_NVERTS] vertex count, [DG_PAGE_END] end of the records (first free entry),
   [DG_PAGE_LARGE] 1 if the page belongs to a large adjacency list; records from
   DG_PAGE_RECORDS on; slot i is (record offset at P-2-2i, vertex id at P-1-2i). */
#define DG_PAGE_NVERTS   0
#define DG_PAGE_END      1
#define DG_PAGE_LARGE    2
#define DG_PAGE_RECORDS  3
/* a large list: neighbours on its first page (header, degree, one slot: 6 entries) and on
   each continuation page (header only: 3 entries) */
#define DG_LARGE_FIRST(P) ((P) - 6u)
#define DG_LARGE_CONT(P)  ((P) - 3u)
/* a page that batches lay out again (the host's, or the device's: dg_up_room_*) is filled
   to DG_PACK_FILL_NUM / DG_PACK_FILL_DEN of its entries, leaving room to grow */
#define DG_PACK_FILL_NUM 7
#define DG_PACK_FILL_DEN 8

/* ---- the vertex directory: blocks of 2^DG_DIR_BLOCK_LOG vertex ids are what the host sends
   to the device when it changed entries (the sync), and what it reads back where a device
   batch moved lists (ownership, >>mirror): the device marks such a block in a bitmap, one bit
   a block */
#define DG_DIR_BLOCK_LOG 6

/* ---- work-groups ---- */
#define DG_WG_MAX        256   /* work-group size of the load-balanced kernels: the largest
                                  power of two <= this that the device allows (DG_WG) */
#define DG_SCAN_ITEMS    4     /* values per work-item in a scan block (DG_SCAN_ITEMS x DG_WG) */
#define DG_PIECE_WGS     4     /* a hub list is cut into pieces of DG_PIECE_WGS x DG_WG edges */
#define DG_LOCAL_LISTS   4     /* a work-group's local output list holds DG_LOCAL_LISTS x DG_WG */

/* ---- radix sort (35_sort.cl) ---- */
#define DG_SORT_BITS     4     /* bits of the key per pass */
#define DG_SORT_BINS     16    /* 1 << DG_SORT_BITS */
#define DG_SORT_ITEMS    8     /* keys per work-item in a tile of DG_SORT_ITEMS x DG_WG */
#define DG_SORT_PASSES   8     /* at most: 32 / DG_SORT_BITS */
/* The sort's scratch words (zeroed before a sort): [pass] the pass's ticket counter; from
   DG_SORT_PASSES, [pass * DG_SORT_BINS + digit] the keys with that digit; from
   DG_SORT_SW_STATUS, [(pass * tiles + tile) * DG_SORT_BINS + digit] the look-back's status */
#define DG_SORT_SW_STATUS (DG_SORT_PASSES * (DG_SORT_BINS + 1))

/* ---- BFS (40_bfs.cl) ----
   Level counters: a ring of DG_BFS_RING slots of DG_LV_WORDS uints, slot L % ring for
   level L. The kernel of level L appends to slot L + 1 and clears slot L + 2, so the host
   queues up to DG_BFS_RING - 2 levels per read-back. */
#define DG_BFS_RING      128
#define DG_BFS_HUB       4096  /* dg_bfs_deep: no frontier list longer than this */
#define DG_BFS_TD_HUB    1024  /* top-down levels: lists longer than this are cut into pieces
                                  spread over all work-groups (dg_bfs_td_hubs); with 4096, a
                                  Kronecker level of a few hundred chunks of lists of 1k-4k
                                  entries left most groups idle (bench/NOTES.md, issue 17) */
#define DG_LV_WORDS      8
#define DG_LV_VERTICES   0     /* vertices in the level's frontier */
#define DG_LV_DEGREES    1     /* sum of their out-degrees */
#define DG_LV_INSPECTED  2     /* adjacency entries read while expanding it */
#define DG_LV_HUBS       3     /* top-down: lists handed to dg_bfs_td_hubs */
#define DG_LV_MAXDEG     4     /* dg_bfs_deep: the largest out-degree in the frontier */
#define DG_LV_MODE       5     /* levels whose direction the device decides: DG_BFS_MODE_* */
#define DG_LV_MU         6     /* and the out-degrees not yet reached after the level's frontier
                                  (2 words: low, high), the direction rule's "unvisited edges" */
#define DG_LV_SENT       DG_LV_MU   /* a graph over several devices (dg_bfs_outbox): the others'
                                  ids among the level's found vertices (its levels' directions
                                  are the host's: DG_LV_MU is free there) */
#define DG_BFS_MODE_TD   1     /* top-down */
#define DG_BFS_MODE_BU   2     /* bottom-up */
/* Early exit at targets (top-down, direction-optimizing): two words after the ring. A target
   not yet reached has the distance DG_BFS_TARGET instead of -1; whoever reaches it counts
   DG_LV_TARGETS down, and the last one sets DG_LV_STOP to its distance + 1. Every level
   kernel reads it first and expands nothing when its level is that far: the level of the
   farthest target is whole, the next is empty and the search ends. */
#define DG_LV_TARGETS    (DG_BFS_RING * DG_LV_WORDS)   /* targets not yet reached */
#define DG_LV_STOP       (DG_LV_TARGETS + 1)           /* 0, or the last target's distance + 1 */
#define DG_LV_DEEP       (DG_LV_STOP + 1)              /* dg_bfs_deep's DG_DEEP_WORDS */
#define DG_LV_ALL_WORDS  (DG_LV_DEEP + DG_DEEP_WORDS)  /* the whole level buffer */
#define DG_BFS_TARGET    (-2)
/* Deep searches (dg_bfs_deep): many top-down levels in one launch of work-groups that are
   all resident at once, a device-wide barrier between levels. It stays while the frontier
   has at most DG_DEEP_VERTICES x DG_WG vertices per group, DG_DEEP_EDGES x DG_WG out-edges
   per group and no list longer than DG_BFS_HUB. Its control words: */
#define DG_DEEP_VERTICES 2
#define DG_DEEP_EDGES    8
#define DG_DEEP_ARRIVE   0     /* arrivals at barriers so far (barrier k is passed at G x k) */
#define DG_DEEP_GEN      1     /* barriers passed, or DG_DEEP_ABORT */
#define DG_DEEP_DONE     2     /* levels expanded in full (the next level is level0 + this) */
#define DG_DEEP_FINISHED 3     /* 1: the search ended (a level found nothing, or the targets) */
#define DG_DEEP_LEVELS   4     /* of those, levels that found vertices */
#define DG_DEEP_REACHED  5     /* vertices found (2 words: low, high) */
#define DG_DEEP_INSPECTED 7    /* adjacency entries read (2 words) */
#define DG_DEEP_DEGREES  9     /* sum of the found vertices' out-degrees (2 words) */
#define DG_DEEP_RAN      11    /* work-groups that took part */
#define DG_DEEP_WORDS    12    /* at DG_LV_DEEP in the level buffer */
#define DG_DEEP_ABORT    0x80000000u   /* in DG_DEEP_GEN with the barrier's number: a group
                                          waited too long there (not all were resident); the
                                          levels from DG_DEEP_DONE on are redone */

/* ---- SSSP (50_sssp.cl) ----
   Control blocks: a ring of DG_SSSP_RING slots of DG_CTL_WORDS uints, one per Bellman-Ford
   pass or near-far launch; launch L writes slot L (and L + 1), and clears slot L + 2. */
#define DG_SSSP_RING     128
#define DG_CTL_WORDS     16
/* Bellman-Ford pass slot */
#define DG_BF_UPDATES    0     /* distances lowered */
#define DG_BF_RELAXED    1     /* edges relaxed */
#define DG_BF_NEG_INF    2     /* 1: a distance reached -INFINITY */
#define DG_BF_LOWERED    3     /* 1: the pass lowered a distance (the counts above are 32-bit: past
                                  2^32 arcs they may wrap, the end of the passes may not) */
/* near-far launch slot */
#define DG_NF_NEAR       0     /* near-queue length of L (appended by L - 1) */
#define DG_NF_THR        1     /* threshold (float bits) */
#define DG_NF_FAR_BUF    2     /* active far buffer (0 or 1) */
#define DG_NF_FAR_START  3     /* far entries at the start of L */
#define DG_NF_FAR_MIN    4     /* smallest far distance at the start of L (bits) */
#define DG_NF_MODE       5     /* DG_NF_MODE_RELAX, _SPLIT or _IDLE */
#define DG_NF_FAR_ADDED  6     /* far entries appended (relax) or kept (split) */
#define DG_NF_ADDED_MIN  7     /* smallest distance of those (bits) */
#define DG_NF_SPLIT_THR  8     /* split: the new threshold (bits) */
#define DG_NF_RELAXED    9     /* edges relaxed */
#define DG_NF_LOWERED    10    /* distances lowered */
#define DG_NF_PIECES     11    /* hub pieces appended for L + 1 */
#define DG_NF_LOCAL      12    /* vertices expanded in local rounds (listed for L + 1) */
#define DG_NF_CHUNK      13    /* next chunk of the near queue to take */
#define DG_NF_UNSETTLED  14    /* split, with targets: targets at or past the threshold */
/* Deep near-far (dg_sssp_nf_deep): its own control words; the first two are dg_deep_arrive's
   (DG_DEEP_ARRIVE, DG_DEEP_GEN, DG_DEEP_ABORT). It goes on while the next turn's near queue has
   at most vmax vertices (an argument), its far pile at most G x DG_NFD_FAR x DG_WG, and at most
   G hub pieces are waiting. */
#define DG_NFD_FAR       64
#define DG_NFD_NEXT      2     /* the next launch number L (turns done: NEXT - L0) */
#define DG_NFD_ABORTED   3     /* 1: a barrier aborted (the search runs again without it) */
#define DG_NFD_RAN       4     /* work-groups that ran */
#define DG_NFD_PHASES    5     /* splits among the turns */
#define DG_NFD_RELAXED   6     /* edges relaxed (2 words) */
#define DG_NFD_LOWERED   8     /* distances lowered (2 words) */
#define DG_NFD_IDLE      10    /* 1: its last turn idled (the search is over) */
#define DG_NFD_WORDS     11
#define DG_NF_MODE_RELAX 0
#define DG_NF_MODE_SPLIT 1
#define DG_NF_MODE_IDLE  2
#define DG_INF_BITS      0x7f800000u   /* +INFINITY as float bits */

/* ---- reachability (60_reach.cl) ----
   cnt: DG_REACH_RING level counters (slot L % ring: entries of level L), then
   [DG_REACH_RING + DG_RC_TOUCHED] words of vis made non-zero (listed in touched) and
   [DG_REACH_RING + DG_RC_VISITED] those summed over the batches. The labels kernel's counters:
   DG_RL_* below. */
#define DG_REACH_RING    64
#define DG_RC_TOUCHED    0
#define DG_RC_VISITED    1
#define DG_RL_UNDECIDED  0     /* queries left to search */
#define DG_RL_POSITIVE   1     /* answered 1 by the labels */
#define DG_RL_BAD        2     /* smallest query naming a bad vertex (0xffffffff: none) */
#define DG_RL_BY_HUBS    3     /* decided by the hub bits */
#define DG_RL_BY_SIGS    4     /* decided by the signatures */
#define DG_RL_WORDS      5
/* Signatures: per component DG_REACH_SIG_WORDS words of bits for its descendants, as many for
   its ancestors (itself included in both). Component c's own bit is its rank r (1..C) in
   traversal 0's order, spread DG_REACH_SIG_SPREAD times over the bits:
   ((r - 1) x SPREAD x bits / C) mod bits, so that components close in a depth-first order,
   which descendants are, share bits. */
#define DG_REACH_SIG_WORDS  8
#define DG_REACH_SIG_SPREAD 4

/* ---- whole-graph algorithms (70_graph.cl) ----
   PageRank's sums, by dg_pr_sum into tot[]: the dangling mass and the L1 change of an
   iteration. */
#define DG_PR_DANGLING   0
#define DG_PR_CHANGE     1
#define DG_PR_TOT_WORDS  2
#define DG_PR_HUB        256   /* in-degree above which a work-group, not a work-item, sums a vertex */
#define DG_CC_CHUNK      64    /* arcs per work-item of a components hooking pass (and of the
                                  SCC sweeps) */
#ifndef DG_TC_HEAVY
#define DG_TC_HEAVY      128   /* triangles: an arc whose shorter list is longer than this is
                                  searched by a whole work-group */
#endif
/* ---- strongly connected components (72_scc.cl) ---- */
#define DG_SCC_UNSET     (-2)  /* scc[v] of an unassigned vertex */
#define DG_SCC_OUT       1     /* mk bits: an unassigned out-neighbour / reached forward */
#define DG_SCC_IN        2     /*          an unassigned in-neighbour / reached backward */
#define DG_SCC_MARK      0     /* sweep modes (dg_scc_sweep) */
#define DG_SCC_FWBW      1
#define DG_SCC_SIGN      2
#define DG_SCC_KEEP      3
#define DG_SCC_WRITE     4
#define DG_SCC_TRIM      0     /* vertex steps (dg_scc_step) */
#define DG_SCC_PIVOT_MIN 1
#define DG_SCC_PIVOT_SET 2
#define DG_SCC_SIGN_START 3
#define DG_SCC_CLEAR     4
#define DG_SCC_TAKE      5
#define DG_SCC_PARTS     6
#define DG_SCC_CTL_FLAG  0     /* control words: a sweep changed something */
#define DG_SCC_CTL_DONE  1     /* vertices labelled */
#define DG_SCC_CTL_MIN   2     /* the smallest id of the pivot's component */
#define DG_SCC_CTL_WORDS 3

/* ---- device batches (25_update.cl) ----
   A batch's counters, cnt[DG_UP_WORDS]; the lists are searched in chunks of DG_UP_CHUNK. */
#define DG_UP_CHUNK      32
#define DG_UP_SMALL      2048  /* arcs a batch sorts in one work-group (dg_up_sort_small) */
#define DG_UP_BAD        0     /* smallest edge with a bad id or a NaN weight (0xffffffff: none) */
#define DG_UP_DEAD       1     /* smallest edge naming a removed vertex */
#define DG_UP_WMIN       2     /* smallest weight, as ordered bits (dg_up_fkey) */
#define DG_UP_EDGES      3     /* edges the batch adds or removes */
#define DG_UP_CHANGED    6     /* + store: pages the device wrote */
#define DG_UP_STAMPED    8     /* + store: pages of lists without room (listed in hlist), or
                                  large lists that need fewer pages (removal) */
#define DG_UP_FALLBACK   10    /* + store: of the pages without room, those the host makes room
                                  on (a large list's, or one whose list outgrows a page) */
#define DG_UP_LONG       12    /* + store: lists the batch changes that may have a hash index on
                                  the host (listed in llist) */
#define DG_UP_WORDS      14
#define DG_UP_NOROOM     0xffffffffu   /* the plan of a page the host makes room on (its first
                                          list's place, dg_up_room_plan) */

/* ---- results that follow the graph (80_result.cl) ----
   A BFS or SSSP result's data buffer: DG_RES_HDR header words, then n distance bits (float),
   n invalid flags and n stamps. */
#define DG_RES_N         0     /* n: the vertex ids the buffer holds */
#define DG_RES_UNIT      1     /* 1: every arc weighs 1 (BFS, or an unweighted graph) */
#define DG_RES_ROUND     2     /* the stamp of the pass under way */
#define DG_RES_HDR       3
#define DG_RES_W_UNIT    0     /* how dg_res_check weighs an in-arc: 1 */
#define DG_RES_W_ENTRY   1     /*   the weight beside the in-list entry (undirected graphs) */
#define DG_RES_W_LOOKUP  2     /*   searched in the tail's out-list (directed, weighted) */
#define DG_RES_SCAN      32    /* out-list entries searched for an arc's weight at most */
#define DG_RES_TEAM      32    /* work-items that share one vertex's list in dg_res_push */
#define DG_CC_CUT_DEG    1024  /* dg_cc_cut_round does not cross longer lists */
#define DG_RES_LIGHT     64    /* dg_res_push_local: longer lists are strided by a team */
#define DG_RES_HEAVY     256   /*   set aside per round at most (more: read by one work-item) */

#endif /* DG_SHARED_H */
