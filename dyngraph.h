/* dyngraph.h - a dynamic graph kept in slotted pages, mirrored to an OpenCL device.
   v0.1.0, MIT License: see the end of this file (and LICENSE).

   =========================================================================
   MANUAL
   =========================================================================

   CONTENTS (manual section -> the code's grep tag)
     1-3   what it is, use, an example              >>api        the declarations
     4-5   the data structure, page rules           >>store      pages, index, LA table, directory
                                                    >>mutate     store mutations, vertices, edges
                                                    >>batch      batches (radix sort, page rewrites)
     6-9   errors, memory, threads, limits          >>base       errors, logging, allocation
                                                    >>validate   statistics and the checker
     10-11 build options, the device                >>device     OpenCL set-up, device state
                                                    >>registry   modules and their kernels
                                                    >>programs   programs, process-wide and disk caches
                                                    >>mirror     the device mirror (sync)
     12    primitives                               >>prim       scan, frontiers, advance, filter
                                                    >>sort       dg_sort_pairs (radix sort)
     13    breadth-first search                     >>bfs
     14    shortest paths                           >>sssp
     15    reachability                             >>reach
     16    how to add an algorithm                  (see >>registry)
     17    whole-graph algorithms                   >>graph      components, PageRank, triangles
                                                    >>scc        strongly connected components
     18    results that follow the graph            >>result     incremental BFS, SSSP, CC, PR
           files: loading, saving, exporting        >>load, >>save
   Kernels: kernels/00_shared.h (constants shared with the host), 10_adjacency.cl (device
   functions every program has), then one file per module (dyngraph_kernels.cl.h holds them).

   REFERENCES (cited in the text as [Author year]; also in README.md)
     [Martinho 2021]    R. Martinho, "Grafos Dinamicos em GPUs" (Marrow-Graph), MSc thesis,
                        Universidade NOVA de Lisboa, 2021: slotted pages, primitives, BFS, SSSP.
     [Chernoskutov 2013] M. A. Chernoskutov, "Load balancing in a GPU implementation of
                        breadth-first search on a graph" (in Russian), c. 2013: edge chunks.
     [Harish 2007]      P. Harish, P. J. Narayanan, "Accelerating large graph algorithms on
                        the GPU using CUDA", HiPC 2007: the frontier-mask BFS.
     [Amorim 2014]      E. R. Amorim, R. L. de Aquino, N. Moreano, "Aceleracao da Busca em
                        Largura em Grafos de Larga Escala utilizando CUDA", UFMS, c. 2014.
     [Beamer 2012]      S. Beamer, K. Asanovic, D. Patterson, "Direction-optimizing
                        breadth-first search", SC 2012.
     [Davidson 2014]    A. Davidson, S. Baxter, M. Garland, J. D. Owens, "Work-efficient
                        parallel GPU methods for single-source shortest paths", IPDPS 2014:
                        near-far.
     [Nogueira 2023]    A. G. D. Nogueira, "Um Estudo da Extensao de Paralelismo Dinamico
                        Fornecido por CUDA em Aplicacoes Recursivas", BSc thesis, UNIPAMPA,
                        2023: flat Bellman-Ford, sorting.
     [Yildirim 2010]    H. Yildirim, V. Chaoji, M. J. Zaki, "GRAIL: scalable reachability
                        index for large graphs", VLDB 2010.
     [Caiazza 2019]     A. Caiazza, "Data-parallel implementation of the GRAIL index on
                        many-core architectures", MSc thesis, Politecnico di Torino, 2019.
     [Su 2017]          J. Su, Q. Zhu, H. Wei, J. X. Yu, "Reachability querying: can it
                        be even faster?", IEEE TKDE 29(3), 2017: BFL, Bloom-filter labels.
     [Satish 2009]      N. Satish, M. Harris, M. Garland, "Designing efficient sorting
                        algorithms for manycore GPUs", IPDPS 2009: radix sort by tiles.
     [Shiloach 1982]    Y. Shiloach, U. Vishkin, "An O(log n) parallel connectivity
                        algorithm", J. Algorithms 3(1), 1982: hooking and pointer jumping.
     [Sutton 2018]      M. Sutton, T. Ben-Nun, A. Barak, "Optimizing parallel graph
                        connectivity computation via subgraph sampling", IPDPS 2018
                        (Afforest: sampled neighbours first, then skip the giant component).
     [Orzan 2004]       S. Orzan, "On distributed verification and verified
                        distribution", PhD thesis, Vrije Universiteit Amsterdam, 2004:
                        SCC by colouring (min-label propagation, then backward closure).
     [Alabandi 2023]    G. Alabandi, W. Sands, G. Biros, M. Burtscher, "A GPU algorithm for
                        detecting strongly connected components", SC 2023 (ECL-SCC: every
                        vertex a pivot; the extreme id on its in- and out-paths; edges
                        between different signatures removed).
     [Slota 2014]       G. Slota, S. Rajamanickam, K. Madduri, "BFS and coloring-based
                        parallel algorithms for strongly connected components and related
                        problems", IPDPS 2014 (Multistep: trim, forward-backward, colour).
     [Vora 2017]        K. Vora, R. Gupta, G. Xu, "KickStarter: fast and accurate
                        computations on streaming graphs via trimmed approximations",
                        ASPLOS 2017: trimming by dependences after deletions.
     [Feng 2021]        G. Feng et al., "RisGraph: a real-time streaming system for evolving
                        graphs to support sub-millisecond per-update analysis at millions ops/s",
                        SIGMOD 2021: incremental updates from the touched vertices.

   1. WHAT IT IS
   A C99 single-header library that stores a directed or undirected graph whose
   vertices and edges change over time, in fixed-size "slotted pages" (the
   Marrow-Graph design), so that a change touches a few pages and only those
   pages need to travel to the GPU.

   2. USE
   In exactly one C or C++ file:

       #define DYNGRAPH_IMPLEMENTATION
       #include "dyngraph.h"

   elsewhere include it without the define. Link with -lOpenCL.

   3. A COMPLETE EXAMPLE
       #define DYNGRAPH_IMPLEMENTATION
       #include "dyngraph.h"
       #include <stdio.h>
       int main(void) {
           dg_graph *g;
           dg_desc desc = {0};              // zero means defaults
           desc.undirected = 1;
           if (dg_create(&desc, &g) != DG_OK) return 1;
           dg_vertex first;
           dg_add_vertices(g, 4, &first);   // ids 0..3
           dg_add_edge(g, 0, 1, 1.0f);
           dg_add_edge(g, 1, 2, 1.0f);
           dg_status s = dg_add_edge(g, 1, 9, 1.0f);   // no vertex 9
           printf("%s: %s\n", dg_status_string(s), dg_error_message(g));
           printf("%zu vertices, %zu edges\n", dg_vertex_count(g), dg_edge_count(g));
           dg_destroy(g);
           return 0;
       }

   4. THE DATA STRUCTURE
   Each graph keeps an out-store (every vertex's out-neighbours) and, for
   directed graphs, an in-store of the same kind (every vertex's in-neighbours:
   the reverse adjacency; an undirected graph is its own reverse). A store is:
   - a POOL of pages: one array of page_size int32 entries per page, addressed
     by page number, grown by doubling. Nothing inside a page is a pointer, so
     the pool can be mirrored to one device buffer. A weighted graph keeps a
     parallel float pool of the same shape: the weight of the neighbour at
     entry i of page p is at entry i of page p of the weight pool.
   - the PAGE LAYOUT (the "AE" layout of [Martinho 2021]), for a page of P entries:
         [0] vertex count n   [1] end of the records (first free entry)
         [2] 1 if the page belongs to a large adjacency list, else 0
         [3 ...]  records, growing forward: per vertex its degree, then its
                  neighbours; records are in the same order as the slots; a
                  list may be followed by a gap of free entries, which hold -1
                  (ids and degrees are never negative, so a reader can tell)
         [... P-1] slots, growing backward: slot i is (record offset at
                  P-2-2i, vertex id at P-1-2i), ids ascending
     Every free entry of a page, in a gap or between records and slots, is -1.
   - the PAGE INDEX, one entry per page (dg__pindex): first vertex id of the
     page, position of the page inside a large adjacency list and the number
     of pages of that list (-1 and -1 for ordinary pages), plus the logical
     order of pages (vertices ascend across pages in that order).
   - a LARGE ADJACENCY LIST: a vertex whose list does not fit one page gets a
     page of its own (n = 1, its degree counts the whole list) followed by
     continuation pages (n = 0, records are neighbours only). Every page of
     such a list except the last is full, so neighbour k of the list is found
     in O(1): k < P-6 is in the first page, else in continuation page
     1 + (k-(P-6))/(P-3) at entry 3 + (k-(P-6))%(P-3). The page numbers of a
     list's pages are kept in the store's "LA table".
   - the VERTEX DIRECTORY: for each vertex id, (page, record offset of its
     degree entry), or (-1, -1) if the vertex does not exist. Lookup is O(1)
     ([Martinho 2021] searched the index and the slots instead). One array serves
     both stores: vertex v's out-store pair, then its in-store pair, side by
     side, so a mutation touching both finds them on one cache line.
   Sizes: the pool, index and directory are arrays indexed by page number or
   vertex id, and nothing in them is a pointer: each can be mirrored to one
   device buffer and updated by the ranges that changed (the host keeps a
   changed flag per page for that).

   5. PAGE RULES
   - a new vertex goes to the last page if that page keeps >= 60% free space,
     else to a new page; so does a removed id handed out again (dg_desc.reuse_ids:
     the last removed id first), which is why, in a graph with reuse_ids, the
     slots of a page need not ascend by id and are searched in turn (O(slots of
     the page), where an ordinary graph bisects them);
   - an edge added goes into the gap after its list when there is one (O(1):
     the usual case); else the lists up to the next gap move by one entry
     (usually a few lists); else, if the page has free entries before the
     list, the page is laid out again with its free space spread as equal gaps
     after all its lists (O(page), rare). [Martinho 2021] instead shifted every
     later record by one on each insertion: O(page) and half a page of cache
     misses each time.
   - an edge added to a full page: if later lists share the page they move to
     a new page; else if earlier lists share it the list itself moves to a new
     page; else the list grows into continuation pages (a large list);
   - an edge removed is swapped with the last entry of its list; the freed
     entry joins the list's gap (O(1); [Martinho 2021] compacted the page). Pages
     left empty return to a free list for reuse;
   - batch insertion (dg_add_edges, dg_load) sorts the batch by source with a
     radix (counting) sort, drops repeats and present edges with one mark bit
     per vertex, and writes each touched page once: a page receiving a few
     edges takes them one by one; other touched pages, in runs of consecutive
     pages, are laid out again into the same and new pages filled to
     DG_PACK_FILL_NUM/DG_PACK_FILL_DEN (7/8) of their entries, the free 1/8 spread as gaps, so that
     later insertions rarely move anything or split pages. A list that passes
     the fill target still goes in if the page is under 7/8 of the target.
     A page that can take its new edges (up to 64: DG__IN_PLACE_MAX) in its
     gaps takes them in place even between rewritten pages. After the batch a store whose
     fill fell below 0.7 is compacted (dg_compact's windows), once batches
     have grown it by an eighth since the last time (section 7);
   - LIST INDEX: a list of 256 entries or more (DG__LH_MIN) gets, when it is
     written at that length, a hash index from neighbour to position in the
     list (open addressing, 8 bytes a slot, 1/4 to 3/4 full: 11-32 bytes, about
     21, per entry of such lists, counted in dg_stats host bytes). Batches use it to
     find what they remove and to drop edges already present without reading
     the list: a batch costs O(k log k) plus the entries it writes, not the
     degrees it touches. A batch that carries deg/128 or more edges of one
     list makes it no index (a scan in order is cheaper than as many lookups)
     but uses the one it has; a list cut below 128 entries loses its index.
     A long list without an index (grown by device batches, which drop the
     indexes of the lists they change, or all of the host's indexes when
     they change at least a quarter as many long lists as there are indexes
     (dg__lh_share), or by single edge calls) is
     scanned by the first batch that needs it and
     indexed by the second (DG__LH_SCANS): a batch that touches a hub once
     pays one scan, not an index build, and lists that batches come back
     to get their index.
     Single edge calls (dg_has_edge, dg_remove_edge, ...) use it too;
   - BATCHES ON THE DEVICE (>>update, kernels/25_update.cl): with
     dg_desc.device_batches = 1, or 0 (automatic) for batches of at least
     1,000 edges once a GPU is in use (dg_sync or any device call made it),
     and always for dg_add_edges_cl / dg_remove_edges_cl (device_batches -1:
     read back, then the host), a batch is checked, sorted by (source, target)
     with two passes of the GPU radix sort (dg_sort_pairs), cleared of repeats
     (the first weight wins) and looked up in its lists on the device (the
     lists touched are read in chunks of 32 entries spread over the device,
     each entry searched among its list's new arcs: the cost is the entries
     touched, spread evenly, whatever a hub's degree). Lists whose new arcs fit
     in the gap after them (or on a large list's last page) are written in
     place. A list without room gets it: its page is laid out again by the
     rules above (the same page and new ones after it, 7/8 full, the free
     entries spread as gaps) on the device itself (dg_up_room_*: one
     work-group a page plans the layout, the host hands it pages it reserved
     and links them in the page order, the device writes headers, slots,
     records, its directory and index entries, and marks the directory blocks
     it wrote; the host reads only the marks and, for each new page, which
     list opens it). Where a
     list would outgrow a page (it becomes large) or a large list needs
     continuation pages, the host plans the page from the degrees the device
     reports (the page read back first if stale) and writes headers, slots,
     the directory, index and LA table, and the device moves the lists'
     entries; a large list's new continuation pages are the device's from the
     start (dg_up_la_init sets them up; of a list that grows, only its first
     page's index entry and its LA table go: dg_up_la_grow writes the other
     pages' entries as the host does), and of
     the pages the host lays out it sends all but the segments holding only
     entries the device writes. Then every arc is written in place
     (dg_stats.batch_room_pages counts the pages laid out again).
     Removals are always in place: removed entries are marked, survivors past
     the new degree fill the holes, the tail is cleared; a large list left with
     fewer pages ends on its new last page (or becomes an ordinary list), the
     device writes the index entries of its pages (dg_up_rm_shrink) and the
     host releases the rest, changing its copies of those entries alike: a
     removal sends nothing back (a free page's entries are read by no one).
     The device marks the pages it writes in a bitmap; the host takes the
     bits (or, for few pages, their list) as its stale bits. A batch that
     lays out pages on the host reads back those pages and the directory
     blocks of their lists, gathered on the device (one transfer), nothing
     else. Nothing is written before the batch is checked
     and every buffer, page and kernel it needs is allocated (a failure changes
     nothing); an OpenCL error after the writes began (a lost device) leaves
     the graph in between: destroy it. The pages and directory blocks the
     device wrote become the device's (manual section 11, OWNERSHIP); the
     device also names the lists of 128 entries or more it changed, whose hash
     indexes the host drops (LIST INDEX; a list cut below 128 entries on the
     host loses its index, so a shorter one has none), or all of them when
     there are at most four times as many. Same results as the host path, lists in
     another order. A batch of at most 2,048 arcs is sorted by one work-group
     in one launch on a GPU (dg_up_sort_small: source, target and arc packed
     in 64 bits, a bitonic sort in local memory), a larger one by two radix
     sorts, one launch a pass up to 128 tiles (262k arcs on a GPU; a decoupled
     look-back, >>sort). A batch into an undirected graph reads its check
     (bad ids, removed vertices) with its first counts: the plan's for an
     insertion, the last ones for a removal (until then the kernels read the
     count of arcs on the device, 0 for a batch that fails its check, so
     nothing is written). On an H200 at scale 22 (Kronecker / uniform) a batch
     of 1,000 edges costs 0.6-0.85 / 0.2-0.4 ms, mostly its ~15 launches and
     two or three waits; 100k edges 1.3-2.2 / 0.6-1.1 ms; 1M 4-9 / 2-3 ms;
     10M 20-27 ms (scale 24: 18-29 ms). The first device batches after a
     load on the host also pay the host's drops of the indexes of the lists
     they change (a free each, once a list: 1-14 ms a batch while batches
     reach thousands of indexed lists). Figures and their peers:
     bench/NOTES.md, "Issue 14 - final figures".

   6. ERRORS
   Every function returning dg_status returns DG_OK (0) or a negative code;
   dg_status_string() names it and dg_error_message() gives the detail of the
   last failure on that graph (which vertex, which file:line). Every mutation
   is all-or-nothing: when it fails, the graph is exactly as before (its
   content; capacity may have grown). Nothing is printed unless a log
   callback is set in dg_desc. No call exits or aborts on bad input.

   7. MEMORY
   All allocations go through dg_desc.allocator when given, else through
   DG_MALLOC / DG_REALLOC / DG_FREE (define all three or none before the
   implementation). dg_get_stats() reports the bytes held. Per vertex: 3 page
   entries (degree, slot) and 2 directory entries in each store (out, and in
   for directed graphs), plus one mark bit; per edge: one entry in each store
   (and a float in a weighted graph's out-store), over the fill ratio. Pools
   and the directory grow by half when they run out, or to exactly what a bulk
   step needs (+1/64), so a bulk load leaves no unused half pool. A directed
   graph loaded in bulk takes about 1.5x the bytes of a plain int32 CSR holding
   its out- and in-edges (bench/NOTES.md). Released pages are kept for reuse,
   never returned to the allocator before dg_destroy. Host batches lay out
   again every page they touch, but a list that outgrows its page moves on and
   leaves the page nearly empty. So a host batch (dg_add_edges,
   dg_remove_edges, dg_load) or a dg_add_edge compacts a store whose fill,
   estimated from its counts, is below 0.7 (stores of 64 pages or more), as
   dg_compact does, once host changes have added an eighth as many pages as
   it has since the last compaction (its cost follows the host's own
   growth): Kronecker scale 18 added in 64 host batches keeps a fill of 0.71
   (11,577 pages), in 512 batches 0.80, where it fell to 0.48 and 0.51
   (17,316 and 16,298 pages; one batch: 0.80), for 5-20% more time; scale 16
   added one edge a call: 2,437 pages at 0.81 instead of 3,461 at 0.57 (a
   single insertion walks 64 pages of the store at most, the next ones go on:
   no call waits for a whole walk). Not while pages or directory blocks a
   device batch wrote are unread (a single call after device batches).
   Device batches do not compact: they lay out only the pages whose lists
   lack room, and removals leave holes (under churn on the device, Kronecker
   scale 18: fill 0.79 -> 0.53 and 50% more pages in 10 rounds of 10% of the
   edges removed and added; 64 device batches of growth: 0.48): call
   dg_compact when dg_stats.fill_ratio falls (0.80 and 10,300 pages after the
   same 10 rounds with a compaction whenever the fill was below 0.8). Pools
   and device buffers keep the capacity they grew to.

   8. THREAD SAFETY
   A graph is not thread-safe: calls on one graph must not overlap. Separate
   graphs may be used from separate threads. Read-only queries (dg_has_edge,
   dg_degree, dg_in_degree, dg_edge_weight, dg_neighbors, dg_in_neighbors,
   dg_vertex_count and the other counts, dg_get_stats, dg_export_csr) may
   overlap each other but not a mutation, as long as they succeed: a failing
   call writes the graph's error message; and after a device batch only once
   the pages it wrote are read back (the first queries read them: call
   dg_validate, or any whole-graph host call, before querying from threads). dg_validate, dg_save and device
   operations (sync, primitives, algorithms) count as mutations. Two graphs sharing a caller's queue must not be used from two
   threads at once. Frontiers and programs belong to their graph: destroy them
   before it.

   9. LIMITS
   - vertex ids are int32: at most 2^31 - 2 vertices ever created (DG_ERR_LIMIT);
   - page_size: a power of two in 64..65536 entries (default 1024);
   - a vertex's degree is limited only by memory (large lists span pages);
   - the pool of a store holds at most 2^31 - 1 pages (page numbers are int32);
     past 2^32 entries the kernels address it with 64-bit positions: the
     programs are built again with DG_POS64 when a pool buffer grows past 2^32
     entries (user programs too, on their next launch), so a smaller graph pays
     nothing for it (measured: Kronecker scale 27, 2.1G edges, 4.2G arcs, on an
     H200, bench/bench_large.c);
   - the pool of a store is one device buffer, so its size is limited by
     CL_DEVICE_MAX_MEM_ALLOC_SIZE (an H200: 37.5 GB, about scale 27; an H100:
     about 20 GB), as every device buffer is (DG_ERR_DEVICE_MEMORY beyond);
   - the edge chunks (components, SCC's device rounds, SSSP's weight scan and
     Bellman-Ford, the edge-chunk BFS) number the arcs with the kernels'
     positions, so 64-bit past 2^32 entries: they work on a graph of 2^32 arcs
     or more (fewer than 2^32 chunks of 16 or more arcs). Frontiers (an
     advance whose frontier's edges reach 2^32, ids repeated or not, returns
     DG_ERR_LIMIT), the other scans, triangles and dg_intersect (DG_ERR_LIMIT
     at 2^32 arcs, or at 2^31 oriented ones), the CSR-copy BFS and the part
     of SCC the host finishes (DG_ERR_LIMIT there) count in 32 bits; so do
     the relaxation counts of dg_sssp_stats a pass (they may wrap past 2^32
     arcs; the passes end on a flag, not on a count). At 2^32 arcs or more SCC's rounds
     walk every page each sweep (no arc list). The direction-optimizing BFS's
     frontier edge counters are 32-bit (past 2^32 arcs in one level only its
     switching rule suffers).

   10. BUILD OPTIONS
   DYNGRAPH_STATIC   make every function static (DG_API; marked unused under GCC and
                     clang, so a program that calls a few gets no warning for the rest)
   DYNGRAPH_NO_OPENCL  the host store alone (before every include of dyngraph.h): no
                     OpenCL headers, no -lOpenCL; loading, saving, mutations, queries and
                     dg_validate work, every function that needs a device returns
                     DG_ERR_NO_DEVICE (dg_cl_context & co. NULL, dg_device_name "")
   DYNGRAPH_FAULT_INJECTION  tests: dg_debug_fail_device_alloc (see dg_cache_clear)
   DYNGRAPH_TRACE_UPDATE  benchmarks: each phase of a device batch and of a sync waits for
                     the device and prints its wall time to stderr, and, on a queue with
                     profiling, its kernels' execution times by name (bench/NOTES.md)
   DYNGRAPH_NO_HUGE_PAGES  no madvise(MADV_HUGEPAGE). By default, on Linux, host blocks of
                     4 MiB and more (pools, directory, page records, a batch's arcs) are
                     offered transparent huge pages, where the program's compile mode
                     declares madvise (GNU modes, the default; not strict -std=c99, whose
                     headers hide it: define _DEFAULT_SOURCE first to have it). Measured on
                     the 2-core development VM: host batches -12%, a small sync's staging
                     -18%, snapshot loads +18% MB/s; within noise on the GPU machine's host
                     (bench/NOTES.md, issue 14, huge pages)
   DG_ASSERT(x)      internal assertions (default: assert from <assert.h>)
   DG_MALLOC(sz) DG_REALLOC(p,sz) DG_FREE(p)   the default allocator
   DG_CACHE_MAX_BYTES  largest program binary written to the binary cache (64 MiB)

   11. THE DEVICE
   Nothing touches OpenCL until the first device operation (dg_sync, dg_bfs, a
   primitive, dg_cl_context ...). Then:
   - the device: dg_desc.context + dg_desc.queue if given (retained, released by
     dg_destroy; profiling on the queue gives dg_bfs_stats.device_ms; kernels
     keep profiling events only during calls given a stats struct: an event
     costs ~7 us of host time a launch on NVIDIA's OpenCL). Else
     dg_desc.device, else the environment variable DYNGRAPH_DEVICE, chooses:
     "gpu", "cpu", or text found (any case) in "<platform> <device>", e.g.
     DYNGRAPH_DEVICE=nvidia; with neither, the first GPU, else any device (PoCL
     on machines without a GPU). No match: DG_ERR_NO_DEVICE listing the devices.
   - the programs: one per module (the core: sync and primitives; BFS; SSSP;
     reachability), each built from kernels/00_shared.h, 10_adjacency.cl and the module's
     file (dyngraph_kernels.cl.h) the first time one of its kernels is needed, with the
     page size compiled in. Built programs are kept process-wide per (context, device,
     options, source): a second graph on the same device builds nothing
     (dg_stats.programs_built), and graphs without a desc context share one library
     context per device (dg_cache_clear releases them). User programs compile against
     the common files only, their source as file "user" (errors name user:line). A failed build is
     DG_ERR_OPENCL with the compiler's log in dg_error_message and, whole, in
     the log callback. Binaries are cached on disk, in dg_desc.cache_dir or else
     $DYNGRAPH_CACHE_DIR (either must exist), else $XDG_CACHE_HOME/dyngraph, else $HOME/.cache/dyngraph (made private to the
     user, mode 0700, and used only while it stays so: owned by the user, writable by
     nobody else), as
     dyngraph-<hash>.bin; the hash covers platform, device, device and driver
     versions, library version, build options and the whole source. A cached
     binary the driver rejects (binary_status, or a failed build) is ignored and
     the program is built from source again. The cache directory must be
     trusted: a file there with a valid header and checksum goes to the driver,
     and a forged binary can crash some drivers (PoCL asserts); point
     DYNGRAPH_CACHE_DIR at a directory only you can write, or turn it off. DYNGRAPH_CL_OPTIONS adds build
     options (e.g. -cl-opt-disable: faster builds, slower kernels; the tests use
     it on PoCL). DYNGRAPH_CACHE=0 or
     dg_desc.binary_cache = -1 turns the cache off. On PoCL it is off unless
     DYNGRAPH_CACHE=1 or binary_cache = 1: PoCL caches kernels itself, and
     reading binaries back makes it compile them twice. An application with its
     own asset cache sets dg_desc.cache_io instead: the same entries (header,
     checksum, binary) go through its read and write functions under keys
     "dyngraph-<hash>", no file is touched, and it is on for every device
     (DYNGRAPH_CACHE=0 and binary_cache = -1 still turn it off).
   - the mirror: device buffers hold each store's page pool (and weights), page
     index and LA table, and the directory, byte for byte as on the host.
     Mutations only mark what they change (a flag and a list per page, a flag
     per directory block of 64 vertices, LA-table segments through their
     pages); each sync packs the changed pieces into one pinned staging buffer
     (16 MiB, CL_MEM_ALLOC_HOST_PTR, mapped once), writes it with one call, and
     one scatter kernel per destination buffer puts the pieces in place. A sync
     after k single-edge changes sends O(k) pages (dg_stats.last_sync_pages and
     last_sync_bytes tell), however large the graph. Buffers that must grow
     double, with a device-to-device copy. Algorithms sync by themselves;
     dg_sync chooses the moment. dg_validate_device reads it all back and
     compares.
   - OWNERSHIP: after a device batch (manual section 5) the device holds the
     truth for the pages it wrote: they are stale on the host (dg__store.stale,
     the symmetric of the dirty marks that send host changes the other way),
     and nothing is read back yet. A host call that needs a list reads back the
     stale pages of that list only (dg_neighbors, dg_degree, dg_has_edge,
     dg_edge_weight, dg_add_edge, dg_remove_edge, dg_set_weight, dg_bfs's source;
     new vertices: the last page); calls that read the whole graph (dg_validate,
     dg_save, dg_export_csr, dg_get_stats, host batches, dg_remove_vertex,
     dg_edit_edge, dg_reach's index, dg_scc, dg_triangles) read back every stale
     page, each run of consecutive pages in one transfer, or, past 4 runs,
     gathered on the device into the pinned staging buffer (idle outside a
     sync) and read in one transfer a 16 MiB chunk. The directory follows the same rule by blocks of
     64 vertex ids: a device batch that moves lists writes their entries on the
     device only and marks their blocks there (a bit a block); the host takes
     the marks (8 KB for 4M ids) and reads a block back before it reads or
     writes an entry of it (one vertex's block, the blocks of the lists on a page
     it changes, or all; past 64 blocks read by host calls after a batch, all
     at once). So a batch costs the host nothing per moved list; a search reads
     back at most its sources' blocks, a device batch the blocks of the lists
     on the pages it leaves to the host (allocated before its writes begin).
     Counts (dg_edge_count, added / removed) are right when the batch returns. A
     read-back failure is the call's error; the pages and blocks stay the
     device's (read again next time).
   - RESULTS WITHOUT WAITING: results of 1 MB and more (dist, parent, labels,
     ranks ...) come back through the pinned staging buffer in two halves,
     the device's copy of one overlapping the host's memcpy of the other
     (~9 GB/s on an H100 host: the memcpy bounds it). Memory from
     dg_host_alloc(g, bytes) is pinned itself: results read into it go there
     by DMA with no copy (~50 GB/s: a 16 MB dist in 0.33 ms instead of 1.8).
     dg_bfs_options.dist_buffer and dg_sssp_options.dist_buffer take a cl_mem
     of dg_cl_context(g): dist is copied into it on the device, enqueued on
     dg_cl_queue(g) before the call returns, so a caller's kernel uses it with
     no round trip (dist may then be NULL: nothing crosses the bus, except
     that dg_sssp with stats reads dist to count the vertices reached). The
     stats' read_ms is the host time of the read-back. Free dg_host_alloc's
     blocks with dg_host_free (dg_destroy frees what is left).
   - device memory: the mirror (pages, index, LA table, directory), the
     16 MiB staging buffer and its device twin, and each module's scratch,
     kept between calls. A device batch's scratch (the update and the sort:
     ~20 words an arc of the batch) is kept only while it is at most twice
     64 MiB or twice a quarter of the pages' bytes (twice: batches just past
     the limit do not remake it each time): the first load of a large graph does
     not leave gigabytes behind (Kronecker scale 22: 12.1 -> 1.9 GB after the
     build). dg_stats.device_bytes counts it all.
   - errors: every OpenCL call is checked; the message names the call and the
     error (CL_...). Out of device memory is DG_ERR_DEVICE_MEMORY. A failed sync
     keeps its marks, so the next one sends everything again.
   - SEVERAL DEVICES: dg_desc.devices = N > 1 (or DYNGRAPH_DEVICES=N with the
     field 0) spreads a graph over the first N devices that dg_desc.device /
     DYNGRAPH_DEVICE names (each in its own context; fewer found:
     DG_ERR_NO_DEVICE at the first device operation, nothing left open). The
     vertex ids are cut into N ranges (multiples of 64, balancing out-degree +
     in-degree + 1, planned at the first sync and again, with everything sent
     again, once the ids have doubled); every page of the host store holds one
     range's lists (batches and compaction keep it so), and device i holds the
     pages of range i under its own page numbers, with a directory in which the
     other ranges' ids read as removed. A sync sends each device its changed
     pages only. dg_bfs (TOP_DOWN and DIRECTION_OPT, without csr_copy) runs on
     all devices at once, one level at a time: each expands its own frontier,
     and the ids of other ranges it finds go to their device through pinned
     host memory (two round trips a top-down level); bottom-up levels read the
     whole frontier bitmap, gathered from each device's words. Targets do not
     stop it early; dist, parent, paths, dist_buffer (written from the host)
     and stats (device_ms is then the search's wall time) are as on one device.
     Host calls, host batches (dg_add_edges_cl reads its batch back from the
     first device: batches always run on the host here), dg_sync,
     dg_validate_device (each device against the host), dg_cl_context & co. (the
     first device's), dg_host_alloc, dg_scan and dg_sort_pairs work; everything
     else that uses the device (dg_sssp, dg_components, dg_pagerank, dg_scc,
     dg_triangles, dg_intersect, dg_reach, results, frontiers, programs, the
     other BFS strategies) returns DG_ERR_UNSUPPORTED with nothing changed. Not
     with dg_desc.context or reuse_ids. Two H200s against one, Kronecker BFS:
     0.65x at scale 24, 1.02x at 25, 1.12x at 26 (7.57 ms against 8.47): each
     level costs the host ~0.2 ms of round trips (bench/NOTES.md, issue 20).
     Built with DYNGRAPH_TRACE_BFS, each level prints its direction, what it
     found and sent, and its time.

   12. PRIMITIVES (write your own traversal)
   A dg_frontier is a device array of vertex ids whose length stays on the
   device (dg_frontier_all fills one with every live vertex, on the device).
   A dg_program compiles your OpenCL C functions with the library's kernels;
   each dg_op names one function of one kind:
       int  visit(int src, int dst, float w, __global int *data)  advance
       int  keep(int v, __global int *data)                        filter
       void apply(int v, __global int *data)                       compute
   or, with the _ARGS kinds, `const dg_args *a` as the last parameter: up to 8
   buffers (dg_ints(a, i), dg_floats(a, i), dg_uints(a, i)), 8 ints and 8
   floats (a->ints[i], a->floats[i]), and the graph (dg_out_degree,
   dg_in_degree, dg_out_neighbor, dg_in_neighbor, dg_out_weight,
   dg_is_vertex, dg_vertex_bound), filled by dg_advance_ex, dg_filter_ex,
   dg_compute_ex from a host dg_args. The reductions
       float value(int v, const dg_args *a)    DG_OP_REDUCE
       int   value(int v, const dg_args *a)    DG_OP_REDUCE_INT
   give dg_reduce the sum, min or max over a frontier: one float (int64 for
   _INT) partial per work-group (at most 1024 groups striding over the
   elements), combined on the host after one small read-back. A frontier
   argument of NULL means every live vertex (advance and filter use a list
   of them built on the device and kept until the graph changes; compute and
   reduce run over the ids and skip removed ones). Float atomics for any
   function: dg_atomic_add_float, dg_atomic_min_float, dg_atomic_max_float
   (compare-and-swap loops). Template and helpers: kernels/15_user.cl.
   dg_advance expands a frontier along out-edges (in-edges with
   dg_op.in_edges; their weight is 1): the degrees of the frontier are scanned
   and one work-item handles one edge, finding its source by binary search in
   the scan (load-balanced whatever the degrees, large lists included); dst
   goes to the output frontier when visit returns nonzero. dg_filter keeps,
   in order, the elements for which keep is nonzero (flags, scan, compaction).
   dg_compute calls apply on every element. dg_scan is an exclusive scan of
   any length (work-efficient blocks, then the block sums). `data` and the
   dg_args buffers are any buffers of dg_cl_context(g). examples/components.c
   (label propagation) and examples/pagerank.c are whole algorithms. An
   advance reads its edge total back (one small read); dg_frontier_get reads
   a length.

   13. BREADTH-FIRST SEARCH
   dg_bfs(g, source, dist, &opt) fills dist (and opt.parent) for every id.
   Strategies (dg_bfs_options.strategy):
   - DG_BFS_DIRECTION_OPT (default, DG_BFS_AUTO; [Beamer 2012]): top-down from a
     queue while the frontier is small, bottom-up levels (every unvisited
     vertex looks for a parent among its in-neighbours, stopping at the
     first) while the frontier's edges exceed the unvisited edges / alpha;
     back to top-down when the frontier falls under n / beta. On a GPU the
     levels past the small first ones are queued a few at a time (4, then twice as
     many, 2 once the frontier shrinks; a top-down frontier that stays small
     goes back to the ordinary levels below) with one read-back for all of them:
     each level's kernels (top-down, its hub kernel where a list can be
     longer than 1024, bottom-up) decide its direction on the device by the
     same rule from the level counters the levels before left, and the one
     of the other direction returns at once; the first bottom-up level after
     a top-down one reads the frontier as dist == level (no bitmap made from
     the queue). A CPU device reads the counters back at no cost: there the
     host decides. Measured (H100, 16 roots): the Rodinia graph 0.655 -> 0.564
     ms, Kronecker scale 22 with DG_BFS_TD_HUB 39.8 -> 71.3 GTEPS (device
     time), uniform 75.5 -> 80.4 (bench/NOTES.md, issue 17, "directions
     decided on the device").
   - DG_BFS_TOP_DOWN: the same top-down levels only. A work-group takes 256
     frontier vertices, scans their degrees in local memory and expands all
     their edges together, one per work-item; lists over 1024 entries
     (DG_BFS_TD_HUB) are cut into pieces spread over all work-groups
     instead. Visited vertices are claimed in a
     bitmap; new ones are appended with one atomic per work-group round.
   On a CPU device (PoCL) the top-down and bottom-up levels of both run
   kernels without local memory or barriers instead (dg_bfs_td_flat: a
   work-item expands whole lists, the rows of 8 frontier vertices read
   before it walks them; dg_bfs_bu_flat: a work-item takes whole words of
   32 vertices; both sum the found vertices' degrees together, not one by
   one): a CPU runs a work-group's work-items one after another,
   and each barrier cuts that loop. Measured (2-core VM, scale 20,
   DIRECTION_OPT): Kronecker 42.3 -> 28.0 ms, uniform 57-59 -> 42-45 ms
   (GAP on the same 2 cores: 17.5 and 24.2 ms; bench/NOTES.md, issue 17,
   "the CPU device's BFS"); then uniform 44-45 -> 37.5-38.7 ms with the
   degrees summed together, TOP_DOWN on uniform 220-230 -> 147-153 ms with
   the rows read ahead.
   - DG_BFS_EDGE_CHUNK: the edge-chunk scheme of [Chernoskutov 2013]:
     the edges are numbered by a scan of all degrees and cut into chunks of
     max_edge_count (16); a chunk -> first vertex array (rebuilt only after
     the graph changed) gives each work-item its chunk; every level, every
     chunk expands the edges of its vertices at the current level.
   - DG_BFS_QUEUE: the BFS of [Martinho 2021], built on the public dg_advance and
     dg_filter (a baseline, and a test of the primitives).
   - DG_BFS_MASK: Harish and Narayanan's frontier-mask BFS with the "mark,
     then visit" split ([Harish 2007], as [Amorim 2014]): one work-item per vertex, two kernels per level.
   Read-backs: MASK and EDGE_CHUNK read a flag per level, QUEUE three small
   values per level; TOP_DOWN and DIRECTION_OPT keep level counters on the
   device and, once the frontier has stayed small for 4 levels (a road
   network, a grid), queue up to 64 levels per read-back; DIRECTION_OPT
   queues its wide levels as said above (dg_bfs_stats.host_round_trips).
   DEEP SEARCHES (TOP_DOWN, DIRECTION_OPT; kernels/40_bfs.cl dg_bfs_deep):
   while the frontier is small (at most 2 x 256 vertices and 8 x 256
   out-edges per compute unit, no list over 4096 entries) the levels run
   many to one launch: one work-group per compute unit, all resident at
   once, meeting at a device-wide barrier after each level (an atomic
   arrival count and a generation word; after the work-group barrier one
   work-item of each group fences at device scope for the whole group, as
   CUDA's grid barrier does: PTX membar.gl on NVIDIA, whose OpenCL mem_fence
   is work-group-scope only; on NVIDIA the groups' prefix sums run in warp
   shuffles, 5 local barriers instead of 18). It
   leaves the loop when the frontier grows past those
   limits, when direction-optimizing would switch to bottom-up, at the
   targets, or at the end; the ordinary kernels go on from that level. A CPU
   device runs it with one work-group. Limit, handled: OpenCL 1.2 does not
   promise that the groups of a launch run at once; a group that waits too
   long (2^20 polls) at a barrier aborts the launch (a compare-and-swap, so
   all groups agree which barrier failed), the level before it is redone by
   the ordinary kernels (claims already made stay), and this device uses one
   launch a level from then on (a DG_LOG_WARNING says so). Measured (H200,
   2048 x 2048 grid, 2,764 levels): 48.3 -> 18.6 ms; H100, with the one
   fence a group, the shuffle scan and the barrier's poll an acquire load
   (PTX ld.acquire.gpu from compute capability 7: no fence after the
   barrier): 18.4 -> 15.8 ms
   (5.7 us a level);
   Kronecker unchanged (bench/NOTES.md, "Issue 17: deep searches", "the
   barrier's price").
   dg_bfs_options.csr_copy runs the same
   kernels on a plain CSR copy of the graph (for benchmarks: the cost of the
   pages). Measured figures: bench/NOTES.md.
   Pathfinding (the same options in dg_sssp_options, section 14):
   - opt.sources: more sources. The search starts from source and from each
     of sources[0..source_count) at distance 0 (repeats allowed; source may
     be -1 then): one search gives every vertex its distance to the nearest
     source (a distance field to every exit of a map). Each source is its
     own parent.
   - opt.targets: the search may stop once all of targets[0..target_count)
     are reached. TOP_DOWN and DIRECTION_OPT do: a target not yet reached is
     marked in dist (DG_BFS_TARGET, -2); the work-item that reaches the last
     one records its level, and every later level kernel reads that first
     and expands nothing, so the farthest target's level is completed and
     the search ends (no read-back is added; the levels already queued after
     the stop return at once, a launch each: measured cheaper than reading
     back more often). Every vertex no farther than the farthest target has its
     distance; farther ones may have -1. MASK, EDGE_CHUNK and QUEUE search
     everything. A target that is also a source is reached at level 0.
   - opt.path, path_capacity, path_length: with targets, a shortest path
     from a source to targets[0] along the parents (built on the device
     whether or not opt.parent is given): one work-item walks it there (a
     few microseconds per hundred steps) and only the path comes back;
     path[0] is the source, path[len-1] = targets[0]; path_length gets the
     whole length (0: not reached) even when only path_capacity vertices
     fit. With dist = NULL nothing of size n is read back: a point-to-point
     query costs the levels it searches (bench/bench_path.c).

   14. SHORTEST PATHS
   dg_sssp(g, source, dist, &opt) fills dist[v] (float) with the weight of a
   shortest path from source, INFINITY where v is unreachable or removed
   (and opt.pred with a shortest-path tree). An unweighted graph has every
   weight 1. Weights change with dg_set_weight, dg_add_edge (also of an edge
   removed before) and the batch calls; the next dg_sssp syncs them.
   Strategies (dg_sssp_options.strategy):
   - DG_SSSP_NEAR_FAR (the default, DG_SSSP_AUTO): near-far delta-stepping
     ([Davidson 2014]). Vertices whose distance falls below a threshold form
     the near queue, the others a far pile; when the near queue empties, the
     threshold moves to max(threshold, smallest far distance) + delta and the
     far pile is split. Every launch decides on the device, from counters
     earlier launches left, whether to relax, split or stop, so up to 64
     launches go out per read-back. Small queues are spread over all
     work-groups; lists longer than 4 x the work-group size are cut into
     pieces spread over all work-groups; while the queue is small, a
     work-group also expands the vertices it just lowered ("local rounds",
     2 by default) so a road network or grid advances several hops per
     launch. delta = 0 picks 256 x mean weight / mean out-degree (measured:
     bench/NOTES.md); a huge delta makes it a fused frontier Bellman-Ford.
     DEEP NEAR-FAR (kernels/50_sssp.cl dg_sssp_nf_deep): the first launches
     run as turns of one launch of one work-group per compute unit (as
     DEEP SEARCHES, section 13: a device-wide barrier after each turn,
     loads of what other groups wrote past the compute unit's cache), for
     as long as a turn's near queue holds at most 512 vertices a group, its
     far pile at most 64 x 256 a group and at most one hub piece a group
     waits; the ordinary launches go on from the turn where it left. A
     query near its source, a grid or a road network then costs no
     launch and no read-back a turn (1 or 2 read-backs in all against 6 to 20;
     the ring is read only when a deep launch ended the search at targets).
     A barrier that aborts (the groups were not all running) leaves a turn
     half done: the search starts again without deep launches, and the
     device keeps away from them (a DG_LOG_WARNING says so). Measured (H200,
     2048 x 2048 grid, weights 1..9, bench/NOTES.md "Issue 16: deep
     near-far"): a query 100 steps away 1.64 -> 1.27 ms; a full search from
     the centre 23.7 -> 26.0 ms (the price: deep turns with 132 groups are
     slower than ordinary launches with 1,056 on its widest frontiers).
     On a CPU device (PoCL) the launches run dg_sssp_nf_flat instead, as
     BFS's flat kernels (section 13): the same ring, queues and decisions
     without local memory or barriers. A work-item expands whole lists,
     reading the rows of 8 queued vertices before it walks them (their
     cache misses overlap) and skipping a vertex already queued again; no
     hub pieces, local rounds or deep launches; delta = 0 picks 2.5 x mean
     weight / mean out-degree (narrow buckets: a CPU pays more for extra
     relaxations than for launches). Measured (2-core VM, scale 20,
     weights 1..255): Kronecker 1,334 -> 190 ms, uniform 2,401 -> 275 ms,
     GAP on the same 2 cores 152 and 277 ms (bench/NOTES.md, issue 17,
     "SSSP on a CPU device"). Its first call no longer waits for PoCL to
     compile the GPU kernel's barriers either (examples/sssp on a cold
     cache: 66 s -> 1.9 s).
   - DG_SSSP_BELLMAN_FORD: edge-parallel Bellman-Ford (as [Nogueira 2023]): every pass
     relaxes every edge (edge chunks of 16, as EDGE_CHUNK), until a pass lowers
     nothing; up to 64 passes per read-back. The only strategy for negative
     weights (opt.negative_weights = 1): it then compares floats with a
     compare-and-swap loop and reports DG_ERR_NEGATIVE_CYCLE when a cycle
     of the (racy) predecessors weighs < 0 (looked for after 64, 128, 256,
     ... passes), when a distance reaches -INFINITY, or when pass n (the
     vertex count) still lowers a distance, so it always ends. A -INFINITY
     weight counts as a negative cycle; cycles of weight 0 that rounding
     makes negative may be reported.
   - DG_SSSP_FRONTIER: frontier Bellman-Ford written on the public
     primitives (000, Gunrock): advance from the vertices lowered last round,
     relaxing with atomic_min on the distances' bit patterns (the order of
     non-negative floats), filter to the first copy of each, clear their
     claims (three read-backs per round).
   Without negative_weights, a negative weight gives DG_ERR_INVALID_ARGUMENT
   naming the edge. The check costs nothing until a negative weight has
   been given to the graph (it keeps the smallest weight ever given); then a
   device pass over all weights runs once per graph version.
   opt.pred is built after the search from the final distances: an edge
   v->u is tight when dist[v] + w == dist[u] (the same float addition that
   set dist[u]); one pass takes a tight in-edge from a strictly closer vertex,
   then passes give the ties (zero weights, weights lost to rounding) a tight
   in-neighbour that already has a predecessor; no cycles, pred[source] =
   source. Distances are float sums along the path, so they equal a float
   Dijkstra's up to rounding (exactly, for integer weights with sums below
   2^24). Limits: fewer than 2^32 chunks of 16 arcs (section 9). Tuning, for
   benchmarks: opt.local_rounds (default 2, negative = none) and
   opt.split_degree (the piece threshold). Measured figures: bench/NOTES.md.
   Pathfinding: opt.sources, opt.targets and opt.path as in section 13. With
   targets, NEAR_FAR stops at the first bucket change (split) at which every
   target lies below the threshold: the near queue is then empty, so every
   distance below the threshold is final. The split launch counts the
   targets at or past its threshold (DG_NF_UNSETTLED); the launch after it
   sees none left and idles, and so does every later one. A last pass sets
   the distances at or past that threshold (upper bounds, not final) to
   INFINITY: every finite distance is exact, and every vertex no farther
   than the farthest target has its distance. A smaller delta stops closer
   to the targets (the automatic delta suits whole searches). BELLMAN_FORD
   and FRONTIER search everything. The path follows the shortest-path tree
   (built when a path is asked for, as for opt.pred).

   15. REACHABILITY
   dg_reach(g, src, dst, n, reachable) answers n queries "is there a
   directed path src[i] -> dst[i]?" (a vertex reaches itself; undirected
   graphs: same connected component) in one call, with the GRAIL index ([Yildirim 2010], on GPUs [Caiazza 2019])
   kept in the graph:
   - strongly connected components are condensed first (on a GPU with 65,536
     ids or more, dg_scc on the device and the components numbered on the host
     in Kahn's order; else, or where every component is one vertex, iterative
     Tarjan on the host over a CSR snapshot of the out-lists: one pass, a
     fraction of the build; see bench/NOTES.md), so cyclic graphs are indexed
     as the DAG of their components;
   - per component, d interval labels of descendants (dg_reach_options.labels,
     default DG_REACH_LABELS = 3): from d randomized traversals of the DAG,
     the component's rank and the smallest rank among its descendants; d
     more of ancestors (the same on the reverse DAG); and its levels (longest
     path from a root, to a sink). If one interval of the destination is not
     inside the source's (or one ancestor interval of the source not inside
     the destination's, or the levels do not nest), the answer is an exact
     "no"; the same component, or a rank inside the source's subtree of
     traversal 0's spanning forest (or the source inside the destination's
     subtree of the reverse forest), is an exact "yes";
   - hubs (beyond GRAIL): the DG_REACH_HUBS (64) components with the most
     descendants x ancestors in traversal 0's spanning forests (subtree
     sizes); every component keeps two 64-bit words,
     the hubs that reach it and the hubs it reaches (two O(V + E) passes).
     A hub that reaches s but not t, or that t reaches and s does not: "no";
     a hub s reaches that reaches t: "yes" (dg_reach_stats.by_hubs);
   - signatures (as in BFL, [Su 2017]): every component keeps 256 bits of
     its descendants and 256 of its ancestors (64 bytes; two O(V + E) passes
     on the host, or in the bottom-up passes of the device build's traversal
     0 of each direction), a component's own bit taken from its rank in
     traversal 0 (bucketed, so that neighbours in a depth-first order share
     bits). A bit of t's descendants missing from s's, or of s's ancestors
     from t's: "no" (dg_reach_stats.by_signatures counts those the intervals
     left open). On a random DAG of 1M vertices and 4 out-edges the labels
     leave 24% of random queries to the search without them, 10-11% with
     them (an H100, bench/NOTES.md);
   - on the device: one kernel tests the labels of every query (and that it
     names live vertices); the rest are searched together, 32 x W queries at
     a time as one bit each in W 32-bit words per search vertex (W up to
     1024: 32768 queries per batch, as far as opt.search_mb allows), every
     step pruned by the same tests (the signatures only where they decided
     at least 1 query for every 16 left to search: testing them costs a
     search ~15-20% where they fill up) and cut short by the "yes" ones,
     several levels queued per read-back. Each level is load-balanced per
     work-group (a scan of the frontier's degrees: a hub's list is walked by
     the whole group). While the index is exact the search runs on the DAG
     of components; after removals on the graph's own pages.
   Index builds (dg_reach_options.build): DG_REACH_BUILD_HOST runs the
   randomized depth-first traversals of [Yildirim 2010] on the host.
   DG_REACH_BUILD_DEVICE takes the DAG level by level (longest path from a
   root), picks a random in-neighbour as parent (a spanning forest; in
   traversal 0 the deepest one, as a depth-first search would), numbers
   the forest in post-order from subtree sizes (bottom-up, then ranges
   top-down) and takes the smallest and largest rank among the descendants
   (bottom-up): not a DFS order (so hi is a maximum too), nearly as
   selective and 4-6x faster to build on large shallow DAGs, but ~6d kernel
   launches per level. AUTO (the default) estimates both from the component
   and arc counts and the DAG's depth (constants fitted on an H100,
   bench/NOTES.md) and takes the device only where it is at least twice as
   fast, never on a CPU device. AUTO weighs build time only, and neither
   index answers faster everywhere (an H100: on the 4-out random DAG the
   host's answers positives 2x faster, on a citation DAG the device's
   answers 2-7x faster): for a graph that rarely changes and is queried
   often, measure both (dg_reach_options.build).
   Changes: a removal (edge or vertex) keeps the index: every path of the
   new graph was one of the old, so the intervals, the hubs' "no" and the
   signatures stay an exact filter; the "yes" shortcuts are turned off
   (dg_reach_stats.filter_only) and searches run on the current graph's
   pages. An insertion (edge or vertex) makes the index stale: the next
   dg_reach rebuilds it (dg_reach_stats.index_built). So the answers are
   exact after any sequence of changes. Limits: fewer than 2^32 arcs; fewer
   than 2^31 vertex ids; the index takes 4 bytes per vertex id plus
   8 x (2d + 2) + 16 (hubs) + 16 (trees) + 64 (signatures) bytes per
   component and 4 per
   arc of the component DAG, on host and device; a search 6 x 4 x W bytes
   per component (per vertex id after removals) on the device, kept for the
   next call (opt.search_mb caps it; DG_ERR_LIMIT if not even W = 1 fits).
   Queries are sent 2^22 at a time; past that, they are checked on the host
   first (nothing is written on bad input either way). Work grows with what
   the labels leave undecided: deep, dense DAGs (citation-like graphs) and
   large components searched after removals are the slow cases.
   16. HOW TO ADD AN ALGORITHM (a module)
   - kernels/NN_name.cl: its kernels, using the device functions of 10_adjacency.cl
     (dg_row, dg_entry, dg_local_scan, DG_LIST_FLUSH, the templates) and, for any constant
     the host also needs, a name in kernels/00_shared.h (never a number on both sides);
     then `make kernels`. Macros only where OpenCL C 1.2 forces them, with the reason.
   - >>registry: one line in DG__MODULES (its id and file) and its kernels in DG__KERNELS;
     the enum, the name table and the program (built on first use, cached process-wide)
     follow from them.
   - its section of this file, tagged >>name, in the order data flows: a state struct whose
     device buffers are the dg__buf fields of one member struct `b` (freed and counted by
     the device, dg_stats.module_bytes), made by the entry point after the sync with
     DG__STATE(g, DG__MOD_<NAME>, type); an options struct whose zero means defaults; kernels
     from dg__kernel(g, DG__K_..., 0, &k), arguments set in order by dg__args(g, k,
     dg__adj(..), DG__A(x), ..., DG__END).
   - test/test_name.c against a simple independent reference (random graphs, mutation
     sequences, the datasets, bad input), a bench/ program, a manual section here and a
     line in README.

   17. WHOLE-GRAPH ALGORITHMS (>>graph, >>scc; kernels/70_graph.cl, 72_scc.cl, 75_triangles.cl)
   - dg_components: weakly connected components on the device, labelled by their smallest
     id. First Afforest's sampling [Sutton 2018]: every vertex links to its first and then
     its second neighbour (hooking the larger root onto the smaller, then jumping), and the
     most frequent root of 1,024 probed vertices is taken for the giant component. Then
     every pass hooks, over every arc (edge chunks of DG_CC_CHUNK arcs a work-item, so hubs
     are spread), the larger of two different roots onto the smaller (atomic_min on the
     root's label), then jumps every label to its root; passes repeat until none changes a
     root (one 4-byte read-back a pass) [Shiloach 1982]. In an undirected graph the passes
     skip the lists of vertices in the giant component (each of its arcs to another
     component is in the other end's list too); a directed graph's passes walk every list.
   - dg_pagerank: pull over the in-arcs in float; contributions rank/outdeg, the dangling
     mass and the L1 change summed per work-group and then by one group on the device (one
     read-back an iteration); vertices with more than DG_PR_HUB in-arcs are summed by a
     work-group each, the rest by a work-item each.
   - dg_triangles: the underlying simple graph is oriented by (degree, id), once per graph
     version: each vertex keeps its lower neighbours in id order. An undirected graph is
     oriented on the device (three passes over the edge chunks: self-loops, counts, pairs;
     then two radix sorts of the pairs, by the lower end and stably by the upper, as many
     bits as the ids need); a directed one on the host, which merges out- and in-lists, in
     O(arcs), and uploads it. The device then takes one arc b->c per work-item and counts
     the common lower neighbours by binary search of the shorter list's entries in the
     longer, each search starting where the last ended, with 64-bit atomics (each triangle
     once); on a GPU, an arc whose shorter list has more than DG_TC_HEAVY (128) entries
     (hub to hub) is listed and searched by a work-group instead, which first loads 256
     samples of the longer list into local memory (a search: 8 steps there, the rest in a
     window of 1/256 of the list).
   - dg_intersect(g, pairs, n, counts): segmented intersection, the primitive under
     triangle counting, for pairs the caller picks (common neighbours, link prediction,
     similarity): counts[i] = the entries the out-lists of pairs[2i] and pairs[2i + 1]
     share, buffers in device memory. The pages' lists are unsorted, so the first call after
     a change makes a sorted copy of the out-lists (the orientation's passes and sorts, every
     arc kept; 4 bytes an arc, kept until the graph changes); then each entry of a pair's
     shorter list is searched in the longer (binary search resuming where the last ended),
     by one work-item, or (on a GPU) past DG_TC_HEAVY entries by a work-group with local samples.
     Measured against hashing each pair's shorter list in local memory over the unsorted
     pages (bench/NOTES.md): 8.4 s against 0.97 s for Kronecker s22's 67M edge pairs.
   - dg_scc: on the device. Trimming (a vertex without an unassigned in- or out-neighbour
     is a component alone), one forward-backward search from a pivot (largest min(out, in)
     degree, if at least 8: the giant component of a real graph), then rounds of
     signatures [Alabandi 2023]: every vertex takes the smallest id that reaches it and
     the smallest id it reaches (min-propagation both ways to a fixed
     point, each sweep walking only the arcs with an end that changed in the sweep before);
     a vertex whose two are equal is in that id's component and takes it as label; arcs
     whose ends differ in either lie in no component and are dropped, so the parts split
     round after round (a 10M-vertex DAG of small cycles: 14 rounds). The first phase
     walks the pages; the arcs still open then go to an arc list, compacted every round.
     Sweeps past DG__SCC_WORK (512) passes over all the arcs (a long diameter: a 2-D grid
     as a DAG) hand the rest to the host's Tarjan (on a CSR of the open arcs, as dg_reach's
     condensation). A CPU device (PoCL) runs Tarjan on the host from the start: there the
     rounds cost 2-50x more (bench/NOTES.md). Undirected graphs: dg_components.
   bench/bench_graph.c measures them against GAP's cc, pr and tc (bench/NOTES.md).

   18. RESULTS THAT FOLLOW THE GRAPH (>>result; kernels/80_result.cl, 70_graph.cl)
   A result (dg_result_create: a BFS or an SSSP from a source, components, PageRank) keeps
   its answer on the device; dg_result_update brings it up to date with whatever changed
   since its last update and hands it out (or leaves it on the device: values NULL):
       dg_result_desc rd = {0}; dg_result *r;
       rd.kind = DG_RESULT_BFS; rd.source = exit;
       dg_result_create(g, &rd, &r);
       for (;;) { ... change g ...; dg_result_update(r, dist, &stats); }
   - The change log: while a result lives, every mutation (single calls, host and device
     batches, dg_add_edges_cl, dg_edit_edge, dg_set_weight, vertex removals with their
     arcs) appends its changes (12 + 4 bytes each; device batches read their edges back
     for it). Results read the entries past the last one they saw; entries every live
     result has seen are dropped. The log holds at most max(65,536, id bound / 2) entries:
     past that, and after a load, all are dropped and results run from nothing. Changes that
     failed stay in the log; they only cost work (their ids are checked when read).
   - BFS, SSSP [Vora 2017; Feng 2021]: (1) trimming, one launch and one 8-byte read-back a
     round: a vertex whose in-arcs lost something (a removed arc or vertex, a raised weight)
     is a suspect; it keeps its distance if an in-neighbour z, not invalid, has
     dist[z] < dist[y] and dist[z] + w == dist[y] (the float addition that set it); else it
     is invalid and the same work-group lists its dependents as the next round's suspects (a
     work-group per suspect: hub lists in steps of the group, the search stopping at the
     first support); (2) repair, on the device: the invalid get INFINITY, and their
     in-neighbours with a distance (the boundary) start the first frontier, with the tails of
     inserted arcs (or lowered weights); with unit weights (BFS, unweighted SSSP) an inserted
     arc that still exists is relaxed alone instead (its tail's other arcs did not change),
     and weight changes are ignored; (3) propagation with atomic_min, round after round: in
     one work-group while the frontier holds at most 2,048 vertices (up to 1,024 rounds a
     launch, one read-back), balanced over the edges (the advance) for a round whose long
     lists hold over 32,768 entries (hubs), else one launch a round (teams of DG_RES_TEAM
     work-items a vertex) with a read-back after 4, 8, ... up to 64 rounds. Support is
     strictly shorter, so every distance left is a real path and every arc that can lower
     one is relaxed: the distances are those of a fresh run (the same floats). Weights of a
     directed weighted graph's in-arcs are looked up in the tail's first DG_RES_SCAN
     out-entries (not found: no support, only more work).
   - Components: removed edges (without removed vertices) are first searched around: balls
     grow from their ends, a launch a round (up to 8 rounds, lists under DG_CC_CUT_DEG, balls
     under id bound / 64), uniting where they meet; when the two ends of every removed edge
     reach each other, no component split (an old path goes around each) and the labels stay.
     Otherwise the components that held an end of a removed edge or a removed vertex are
     marked by their old label and their vertices start again alone; hooking then runs over
     the arcs of those vertices only (an advance over their lists) until no root changes;
     the edges inserted since (that still exist: an edge inserted and removed again within
     the window is not hooked) hook the labels' roots. Labels are those of a fresh run.
   - PageRank: the iterations start from the last ranks (new ids: 1/n), with the result's
     options; the answer is within the tolerance of a fresh run.
   - From nothing (dg_result_stats.full = 1, .reason says why): the first update, after an
     error, after a load or a dropped log, more changes than arcs / 16 (and over 4,096), a
     removed source (DG_ERR_NOT_FOUND until its id is live again), a negative weight
     (SSSP: DG_ERR_INVALID_ARGUMENT, as dg_sssp), removals touching components that hold
     over an eighth of the live vertices (over 4,096: a giant component: Afforest's fresh
     run skips it, cheaper than hooking it again), and for BFS and SSSP (unless
     dg_result_desc.budget is negative) an update still running after budget (default 2)
     times the host time of the last full run (it gives up: an update costs at most about
     three fresh runs), or one of over 4,096 changes whose reading alone (0.25 us each)
     would take longer than the last full run.
   - Costs: a small batch costs a few launches and read-backs (0.1-0.3 ms on an H100 or
     H200); an insertion into a deep graph (a grid) pays ~4 us a level the change spreads
     over while its frontier is small, ~15 us a level when it is wide (a fresh search: ~20 us
     a level); the read-back of the answer (values given) is that of a fresh run.
     bench/bench_result.c measures them beside fresh runs; bench/NOTES.md has the figures.
*/
#ifndef DYNGRAPH_H
#define DYNGRAPH_H

#define DYNGRAPH_VERSION_MAJOR 0
#define DYNGRAPH_VERSION_MINOR 1
#define DYNGRAPH_VERSION_PATCH 0
#define DYNGRAPH_VERSION_STRING "0.1.0"

#include <stddef.h>
#include <stdint.h>

#ifdef DYNGRAPH_NO_OPENCL
/* The host store alone: no OpenCL headers, no -lOpenCL. The OpenCL handle types of the API
   stay, as the opaque pointers the Khronos headers declare; every function that needs a
   device returns DG_ERR_NO_DEVICE. */
typedef struct _cl_context *cl_context;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_mem *cl_mem;
#else
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifdef __APPLE__
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif
#endif

#ifndef DG_API
#ifdef DYNGRAPH_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define DG_API static __attribute__((unused))   /* a program uses a few: no warning for the rest */
#else
#define DG_API static
#endif
#else
#define DG_API extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t dg_vertex;        /* vertex id: 0, 1, 2, ... in creation order (reused only with dg_desc.reuse_ids) */
typedef struct dg_graph dg_graph; /* opaque */
typedef struct dg_edge { dg_vertex src, dst; float weight; } dg_edge;

typedef enum dg_status {          /* 0 is success, errors are negative */
    DG_OK = 0,
    DG_ERR_INVALID_ARGUMENT = -1, /* NULL where not allowed, bad option, bad id (< 0), NaN weight */
    DG_ERR_NOT_FOUND        = -2, /* no such vertex or edge (removed or never created) */
    DG_ERR_EXISTS           = -3, /* dg_add_edge: the edge is already there */
    DG_ERR_OUT_OF_MEMORY    = -4, /* host allocation failed */
    DG_ERR_DEVICE_MEMORY    = -5, /* device allocation failed */
    DG_ERR_OPENCL           = -6, /* an OpenCL call failed (see dg_error_message) */
    DG_ERR_NO_DEVICE        = -7, /* no usable OpenCL device */
    DG_ERR_IO               = -8, /* file could not be opened, read or written */
    DG_ERR_PARSE            = -9, /* malformed input file (message names file:line) */
    DG_ERR_LIMIT            = -10,/* beyond a size limit (ids, page size, allocation size) */
    DG_ERR_CORRUPT          = -11,/* dg_validate found a broken invariant (a library bug) */
    DG_ERR_NEGATIVE_CYCLE   = -12,/* dg_sssp with negative_weights: a negative cycle is reachable */
    DG_ERR_UNSUPPORTED      = -13 /* not available in this configuration (a graph over several
                                     devices: manual section 11, SEVERAL DEVICES); nothing changed */
} dg_status;

/* Name of a status ("DG_OK", "DG_ERR_NOT_FOUND", ...). Never NULL. Thread-safe. */
DG_API const char *dg_status_string(dg_status s);
/* Detail of the last failure on g, "" if none (or if g is NULL). Valid until the next call on g. */
DG_API const char *dg_error_message(const dg_graph *g);

/* The OpenCL C source of the library's kernels (as compiled at run time). Never NULL. */
DG_API const char *dg_kernel_source(void);

typedef enum dg_log_level { DG_LOG_ERROR = 0, DG_LOG_WARNING = 1, DG_LOG_INFO = 2 } dg_log_level;

typedef struct dg_allocator {     /* both functions, or neither */
    void *(*alloc_fn)(size_t size, void *user_data);
    void  (*free_fn)(void *ptr, void *user_data);
    void *user_data;
} dg_allocator;

/* The application keeps the compiled kernels (an engine's asset cache) instead of files: both
   functions, or neither. key names an entry ("dyngraph-" and 16 hex digits; it changes with the
   device, driver, library version, build options and kernel source); an entry is opaque bytes
   (a header with a checksum, then the driver's binary: an entry that does not check out is
   ignored, never handed to the driver). read copies the entry into buf when cap is at least its
   size and returns its size (0: no such entry); it is called with buf NULL first, to learn the
   size. write stores an entry (replacing one of the same key). Called while a program is built,
   from the thread that uses the graph. */
typedef struct dg_cache_io {
    size_t (*read)(const char *key, void *buf, size_t cap, void *user_data);
    void   (*write)(const char *key, const void *data, size_t size, void *user_data);
    void *user_data;
} dg_cache_io;

typedef struct dg_logger {        /* called with every error message (and warnings) */
    void (*func)(dg_log_level level, const char *message, void *user_data);
    void *user_data;
} dg_logger;

#define DG_DEFAULT_PAGE_SIZE 1024
typedef struct dg_desc {          /* zero-initialised means "all defaults" */
    uint32_t page_size;           /* int32 entries per slotted page: power of two, 64..65536;
                                     0 = DG_DEFAULT_PAGE_SIZE (1024) */
    int undirected;               /* 1: an edge {u,v} is stored in both directions */
    int weighted;                 /* 1: edges carry a float weight; else every weight is 1 */
    cl_context context;           /* optional: use the caller's context ...            */
    cl_command_queue queue;       /* ... and queue (both or neither)                   */
    dg_allocator allocator;       /* optional host allocation hooks */
    dg_logger logger;             /* optional log callback */
    const char *device;           /* optional OpenCL device choice when no context is given: "gpu",
                                     "cpu", or text matched (case-insensitive) against
                                     "<platform name> <device name>"; NULL: the environment
                                     variable DYNGRAPH_DEVICE, else the first GPU, else any device */
    int binary_cache;             /* 0: cache compiled kernels on disk unless DYNGRAPH_CACHE=0 (on
                                     PoCL, which caches by itself, only if DYNGRAPH_CACHE=1);
                                     -1: never; 1: always (see the manual, THE DEVICE) */
    int reuse_ids;                /* 1: dg_add_vertex hands out the ids of removed vertices (any
                                     order) before creating new ones, so dg_vertex_id_bound() stays
                                     at most the largest number of vertices alive at one time plus
                                     the ids given by dg_add_vertices (which always returns a fresh
                                     consecutive range). 0 (default): ids are never reused. */
    int device_batches;           /* where dg_add_edges / dg_remove_edges apply a batch: 0 =
                                     automatic (large batches on the device), 1 = always on the
                                     device, -1 = always on the host; the result is the same
                                     either way (manual section 5, BATCHES ON THE DEVICE;
                                     automatic: 1,000 edges or more, once a GPU is in use;
                                     DYNGRAPH_NO_OPENCL: the host); other values are
                                     DG_ERR_INVALID_ARGUMENT */
    const char *cache_dir;        /* optional: the directory of the kernel cache, used as it is
                                     (it must exist; it overrides DYNGRAPH_CACHE_DIR); kept as
                                     given, so it must outlive the graph */
    dg_cache_io cache_io;         /* optional: the cache through these functions instead of files
                                     (on every device, PoCL included; off with binary_cache = -1,
                                     or DYNGRAPH_CACHE=0 and binary_cache 0) */
    int devices;                  /* devices the graph spreads over, sharded by vertex range
                                     (manual section 11, SEVERAL DEVICES): 0 = the environment
                                     variable DYNGRAPH_DEVICES, else 1; N > 1: the first N devices
                                     that `device` names (on one platform). Not with `context`
                                     or reuse_ids (DG_ERR_INVALID_ARGUMENT); fewer found:
                                     DG_ERR_NO_DEVICE at the first device operation */
} dg_desc;
#define DG_MAX_DEVICES 64         /* dg_desc.devices at most */

/* Creates an empty graph. desc may be NULL (all defaults). Returns DG_ERR_INVALID_ARGUMENT for a
   bad page size or half an allocator, DG_ERR_OUT_OF_MEMORY. *out is NULL on failure. */
DG_API dg_status dg_create(const dg_desc *desc, dg_graph **out);
DG_API void      dg_destroy(dg_graph *g);                         /* NULL is fine */
/* The description actually in use (defaults filled in). */
DG_API dg_desc   dg_query_desc(const dg_graph *g);

/* ---- Mutations. Each call either succeeds entirely or leaves the graph exactly as it was. ---- */
/* New vertex with the next id. DG_ERR_LIMIT past 2^31-2 ids. */
DG_API dg_status dg_add_vertex(dg_graph *g, dg_vertex *out_id);                  /* out_id may be NULL */
DG_API dg_status dg_add_vertices(dg_graph *g, size_t count, dg_vertex *out_first); /* ids first..first+count-1 */
/* Removes v, its out-edges and every edge into v (O(degree) through the reverse adjacency). */
DG_API dg_status dg_remove_vertex(dg_graph *g, dg_vertex v);
/* Adds u->v (and v->u when undirected). DG_ERR_EXISTS if present, DG_ERR_NOT_FOUND if u or v
   does not exist, DG_ERR_INVALID_ARGUMENT for a negative id or a NaN weight. The weight is kept
   in weighted graphs and ignored (1) otherwise. Self-loops are allowed. */
DG_API dg_status dg_add_edge(dg_graph *g, dg_vertex u, dg_vertex v, float weight);
DG_API dg_status dg_remove_edge(dg_graph *g, dg_vertex u, dg_vertex v);
/* Replaces u->old_v by u->new_v keeping its weight. DG_ERR_NOT_FOUND if u->old_v is absent,
   DG_ERR_EXISTS if u->new_v is already present (old_v == new_v is a successful no-op). */
DG_API dg_status dg_edit_edge(dg_graph *g, dg_vertex u, dg_vertex old_v, dg_vertex new_v);
/* Sets the weight of an existing edge (both directions when undirected). */
DG_API dg_status dg_set_weight(dg_graph *g, dg_vertex u, dg_vertex v, float weight);
/* Batch insertion: edges already present and repeats within the batch are skipped (the first
   occurrence in the batch wins) and not counted in *added. Any edge naming a missing vertex
   gives DG_ERR_NOT_FOUND and nothing is applied. added may be NULL. */
DG_API dg_status dg_add_edges(dg_graph *g, const dg_edge *e, size_t n, size_t *added);
/* Batch removal: edges not present (and repeats) are skipped and not counted in *removed.
   The weight field is ignored. A missing vertex gives DG_ERR_NOT_FOUND, nothing applied. */
DG_API dg_status dg_remove_edges(dg_graph *g, const dg_edge *e, size_t n, size_t *removed);
/* Compaction: pages that removals left part-empty are packed again. Runs of consecutive
   ordinary pages (up to 65536 entries' worth) whose lists fit on at least one page fewer are
   laid out as batches lay pages out (7/8 full, the free entries spread as gaps), and the pages
   left over go back to the free list, which insertions take from before the pool grows; large
   lists stay. The content does not change (lists keep their order). Stale pages are read back
   first (manual section 11); the next sync sends the rewritten pages. O(pages). Device batches
   (manual section 5) never compact by themselves: under churn (removals and insertions in
   turn) call this when dg_stats.fill_ratio falls (e.g. below 0.6). *released may be NULL. */
DG_API dg_status dg_compact(dg_graph *g, size_t *released);

/* ---- Host-side queries (O(1), or O(degree) for edge lookups). ---- */
DG_API size_t dg_vertex_count(const dg_graph *g);     /* live vertices */
DG_API size_t dg_vertex_id_bound(const dg_graph *g);  /* every id ever created is < this */
DG_API size_t dg_edge_count(const dg_graph *g);       /* edges as added: an undirected edge counts once */
DG_API int    dg_has_vertex(const dg_graph *g, dg_vertex v);
DG_API int    dg_has_edge(const dg_graph *g, dg_vertex u, dg_vertex v);
DG_API dg_status dg_degree(const dg_graph *g, dg_vertex v, size_t *out_degree);     /* out-degree */
DG_API dg_status dg_in_degree(const dg_graph *g, dg_vertex v, size_t *out_degree);  /* in-degree */
/* Weight of u->v into *out_weight (1 in unweighted graphs). DG_ERR_NOT_FOUND if absent. */
DG_API dg_status dg_edge_weight(const dg_graph *g, dg_vertex u, dg_vertex v, float *out_weight);
/* Out-neighbours of v, in no particular order. *out_count receives the degree; at most capacity
   entries are written to out and weights (either may be NULL: then only the count is asked). */
DG_API dg_status dg_neighbors(const dg_graph *g, dg_vertex v, dg_vertex *out, float *weights,
                              size_t capacity, size_t *out_count);
/* In-neighbours of v (sources of the edges into v), as dg_neighbors. */
DG_API dg_status dg_in_neighbors(const dg_graph *g, dg_vertex v, dg_vertex *out,
                                 size_t capacity, size_t *out_count);

/* ---- Introspection. ---- */
typedef struct dg_stats {
    size_t vertices, edges;       /* as dg_vertex_count / dg_edge_count */
    size_t arcs;                  /* directed entries in the out-store (2 per undirected edge, 1 per self-loop) */
    size_t pages;                 /* live pages, all stores */
    size_t free_pages;            /* released pages kept for reuse */
    size_t large_lists;           /* adjacency lists spanning several pages, all stores */
    size_t large_pages;           /* pages belonging to large lists */
    size_t entries_used;          /* used page entries (headers, records, slots) */
    size_t entries_allocated;     /* entries of the live pages */
    double fill_ratio;            /* entries_used / entries_allocated (0 for an empty graph) */
    size_t host_bytes;            /* bytes allocated on the host: pools (whole capacity), index,
                                     directory, LA tables, mark bits and scratch */
    size_t pages_changed;         /* pages changed since the last device sync */
    uint32_t page_size;
    /* the device mirror (all 0 before the first device operation) */
    size_t syncs;                 /* dg_sync calls (explicit or by an algorithm) that uploaded anything */
    size_t last_sync_bytes;       /* bytes uploaded by the last sync (pages, index, directory, LA tables;
                                     0 when it had nothing to send) */
    size_t last_sync_pages;       /* pages uploaded by the last sync, all stores */
    uint64_t upload_bytes;        /* bytes uploaded by every sync so far */
    size_t device_bytes;          /* bytes of device buffers held (mirror, scratch, staging) */
    size_t module_bytes;          /* of which the modules' state: the primitives' and algorithms'
                                     scratch and results, kept for the next call */
    size_t programs_built;        /* programs this graph compiled (or loaded from the disk cache);
                                     0 when every program came from the process-wide cache */
    size_t batch_arcs_device;     /* the last device batch (>>update): arcs it wrote in place on the device, */
    size_t batch_arcs_host;       /* always 0: the device makes room itself
                                     (no arc goes to the host; kept so that readers compile) */
    size_t batch_room_pages;      /* pages it laid out again to make room (insertions; on the device,
                                     or by the host where a list becomes or is large) */
    int wide_positions;           /* 1: the kernels address the pool with 64-bit positions (a pool
                                     buffer holds more than 2^32 entries; LIMITS in the manual) */
} dg_stats;
DG_API dg_status dg_get_stats(const dg_graph *g, dg_stats *out);
/* Walks every invariant of the pages, index, LA tables, list indexes, directory, reverse
   adjacency and counts. DG_OK, DG_ERR_CORRUPT with the first broken invariant in
   dg_error_message, or DG_ERR_OUT_OF_MEMORY (it needs O(E) scratch memory). O(V + E log E). */
DG_API dg_status dg_validate(dg_graph *g);

/* ---- The device. ----
   The first device operation (dg_sync, an algorithm, a primitive, dg_cl_context ...) sets up
   OpenCL: the desc's context and queue, or a device chosen as dg_desc.device says; builds the
   kernels (or loads them from the binary cache) and uploads the graph. Later ones upload only
   what changed. Errors: DG_ERR_NO_DEVICE, DG_ERR_OPENCL (with the call, the error name and, for a
   failed build, the compiler's log in dg_error_message), DG_ERR_DEVICE_MEMORY. */
/* Sends the pages, index entries, directory blocks and LA-table segments changed since the last
   sync to the device: one pinned staging buffer, one write and one scatter kernel per kind. */
DG_API dg_status dg_sync(dg_graph *g);
/* The OpenCL objects in use (the device is set up first if needed); NULL on failure (see
   dg_error_message). Owned by the graph unless they came from the desc. */
DG_API cl_context       dg_cl_context(dg_graph *g);
DG_API cl_command_queue dg_cl_queue(dg_graph *g);
DG_API cl_device_id     dg_cl_device(dg_graph *g);
/* "<platform name>: <device name>" of the device in use; "" before the device is set up. */
DG_API const char *dg_device_name(const dg_graph *g);
/* Pinned (page-locked) host memory of the graph's device, for results: an algorithm that reads
   its results back into such a block (dist of dg_bfs / dg_sssp, labels, ranks, ...) has the
   device write them there directly at the bus's speed, with no copy through a staging buffer
   (a 16.8 MB dist: 0.32 ms instead of 1.8 ms on an H100 host). NULL on failure (see
   dg_error_message). Free with dg_host_free before dg_destroy (which frees what is left). */
DG_API void *dg_host_alloc(dg_graph *g, size_t bytes);
DG_API void  dg_host_free(dg_graph *g, void *p);            /* NULL is fine */
/* Syncs, then reads the device mirror back and compares it byte for byte with the host copy
   (live pages, index, directory of every id, LA-table segments of live lists). DG_OK, or
   DG_ERR_CORRUPT naming the first difference. For tests: reads the whole graph back. */
DG_API dg_status dg_validate_device(dg_graph *g);
/* Batches already in device memory: edges is a buffer of dg_cl_context(g) holding n dg_edge
   (at least n * sizeof(dg_edge) bytes). Exactly dg_add_edges / dg_remove_edges on those edges:
   repeats and present (absent) edges skipped, the first weight wins, a NaN weight is
   DG_ERR_INVALID_ARGUMENT and a missing vertex DG_ERR_NOT_FOUND with nothing applied; a NULL or
   too small buffer is DG_ERR_INVALID_ARGUMENT. The calls wait for the graph's queue. Applied on
   the device (manual section 5, BATCHES ON THE DEVICE), or, with device_batches = -1, read back
   and applied on the host. */
DG_API dg_status dg_add_edges_cl(dg_graph *g, cl_mem edges, size_t n, size_t *added);
DG_API dg_status dg_remove_edges_cl(dg_graph *g, cl_mem edges, size_t n, size_t *removed);
/* Programs are kept process-wide per (context, device, build options, source), so a second
   graph on the same device builds nothing (dg_stats.programs_built); graphs without
   dg_desc.context share one library-made context per device. Programs of a caller's context
   are released with the last graph that uses it. dg_cache_clear releases the library's
   contexts and the programs no graph uses any more (optional: the end of the process does as
   much). Thread-safe (a spin lock) with GCC, clang and MSVC. */
DG_API void dg_cache_clear(void);
#ifdef DYNGRAPH_FAULT_INJECTION
/* Tests only (compiled in with DYNGRAPH_FAULT_INJECTION, process-wide, not thread-safe): the
   device allocation made after `after` more allocations (0: the next one) fails as on a full
   device (CL_MEM_OBJECT_ALLOCATION_FAILURE); -1 turns it off. dg_debug_device_allocs counts the
   allocations since the last dg_debug_fail_device_alloc. */
DG_API void dg_debug_fail_device_alloc(long after);
DG_API long dg_debug_device_allocs(void);
#endif

/* ---- Primitives: frontiers and user functions (the building blocks of the algorithms). ----
   A frontier is a device array of vertex ids with its length kept on the device. User functions
   are OpenCL C source compiled together with the library's kernels; each dg_op names one:
     DG_OP_ADVANCE    int   f(int src, int dst, float weight, LAST)
                      called for every edge src->dst (in-edge dst<-src with in_edges) of the
                      input frontier's vertices, one work-item per edge (load-balanced across
                      degrees); nonzero puts dst into the output frontier (repeats possible, any
                      order)
     DG_OP_FILTER     int   f(int v, LAST)    nonzero keeps v (order kept)
     DG_OP_COMPUTE    void  f(int v, LAST)    called once per frontier element
     DG_OP_REDUCE     float f(int v, const dg_args *a)   summed (or min, max: see dg_reduce)
     DG_OP_REDUCE_INT int   f(int v, const dg_args *a)   the same in exact 64-bit integers
   LAST is `__global int *data` (the cl_mem passed to dg_advance/dg_filter/dg_compute, may be
   NULL); the kinds DG_OP_ADVANCE_ARGS, DG_OP_FILTER_ARGS and DG_OP_COMPUTE_ARGS take
   `const dg_args *a` there instead: up to DG_ARGS_BUFFERS buffers of any type and
   DG_ARGS_SCALARS ints and floats, passed by dg_advance_ex & co, plus the graph. In OpenCL C,
   for a dg_args *a:
     dg_ints(a, i), dg_uints(a, i), dg_floats(a, i)   buffer i as int / uint / float pointer
     a->ints[i], a->floats[i]                         the scalars
     dg_vertex_bound(a), dg_is_vertex(a, v)           ids run 0 .. bound - 1
     dg_out_degree(a, v), dg_in_degree(a, v)          (0 <= v < bound; 0 for a removed id)
     dg_out_neighbor(a, v, k), dg_in_neighbor(a, v, k), dg_out_weight(a, v, k)
                                                      edge k < degree of v, in O(1)
   and, for any function, float atomics returning the old value: dg_atomic_add_float(p, x),
   dg_atomic_min_float(p, x), dg_atomic_max_float(p, x) (p a __global float *). Functions may
   use the OpenCL C 1.2 atomics on the buffers too. An undirected graph's in-edges are its
   out-edges; in-edges weigh 1 (the in-store keeps no weights: an undirected graph's in-edge
   k of v is out-edge k of v, with dg_out_weight). */
typedef struct dg_frontier dg_frontier;
typedef struct dg_program dg_program;
typedef enum dg_op_kind {
    DG_OP_ADVANCE = 1, DG_OP_FILTER = 2, DG_OP_COMPUTE = 3,   /* last parameter: data */
    DG_OP_ADVANCE_ARGS = 17, DG_OP_FILTER_ARGS = 18, DG_OP_COMPUTE_ARGS = 19,   /* dg_args */
    DG_OP_REDUCE = 20, DG_OP_REDUCE_INT = 21                  /* dg_args, for dg_reduce */
} dg_op_kind;
typedef struct dg_op {
    dg_op_kind kind;
    const char *function;         /* name of the user function in the source */
    int in_edges;                 /* DG_OP_ADVANCE(_ARGS): follow in-edges instead of out-edges */
} dg_op;
typedef enum dg_reduce_op { DG_REDUCE_SUM = 0, DG_REDUCE_MIN = 1, DG_REDUCE_MAX = 2 } dg_reduce_op;
enum { DG_ARGS_BUFFERS = 8, DG_ARGS_SCALARS = 8 };
typedef struct dg_args {          /* zero-initialised: no buffers, scalars 0 */
    cl_mem buffers[DG_ARGS_BUFFERS];   /* buffers of dg_cl_context(g), or NULL */
    int32_t ints[DG_ARGS_SCALARS];
    float floats[DG_ARGS_SCALARS];
} dg_args;
/* Frontier of up to `capacity` ids (it grows when an advance needs more). */
DG_API dg_status dg_frontier_create(dg_graph *g, size_t capacity, dg_frontier **out);
DG_API void      dg_frontier_destroy(dg_frontier *f);                    /* NULL is fine */
/* Uploads ids[0..n): each a live vertex, else DG_ERR_INVALID_ARGUMENT (negative) or
   DG_ERR_NOT_FOUND (beyond the id bound, or removed) naming the first bad one, and the frontier
   is unchanged. Ids that user kernels write into dg_frontier_buffer are not checked: the
   primitives give a bad one (negative, beyond the bound, removed) no edges instead of reading
   out of bounds. */
DG_API dg_status dg_frontier_set(dg_frontier *f, const dg_vertex *ids, size_t n);
/* Every live vertex, ascending: the frontier that whole-graph user algorithms start from. */
DG_API dg_status dg_frontier_all(dg_frontier *f);
/* Reads the length (and, if ids is not NULL, up to capacity ids) back from the device. */
DG_API dg_status dg_frontier_get(dg_frontier *f, dg_vertex *ids, size_t capacity, size_t *n);
DG_API cl_mem    dg_frontier_buffer(const dg_frontier *f);   /* the ids, for user kernels */
/* Compiles `source` with the library's kernels and one kernel per op. The build log of a failed
   build is in dg_error_message. Uses the binary cache like the library's own program. */
DG_API dg_status dg_program_create(dg_graph *g, const char *source, const dg_op *ops, size_t nops,
                                   dg_program **out);
DG_API void      dg_program_destroy(dg_program *p);                      /* NULL is fine */
/* ops[op] must be of the matching kind. The graph is synced first. out may not be in. in may
   be NULL: every live vertex (as dg_frontier_all, without a frontier to keep). The plain
   forms pass data as buffer 0 (LAST = data for functions without dg_op.args). */
DG_API dg_status dg_advance(dg_program *p, size_t op, const dg_frontier *in, dg_frontier *out, cl_mem data);
DG_API dg_status dg_filter(dg_program *p, size_t op, const dg_frontier *in, dg_frontier *out, cl_mem data);
DG_API dg_status dg_compute(dg_program *p, size_t op, const dg_frontier *in, cl_mem data);
DG_API dg_status dg_advance_ex(dg_program *p, size_t op, const dg_frontier *in, dg_frontier *out,
                               const dg_args *args);
DG_API dg_status dg_filter_ex(dg_program *p, size_t op, const dg_frontier *in, dg_frontier *out,
                              const dg_args *args);
DG_API dg_status dg_compute_ex(dg_program *p, size_t op, const dg_frontier *in, const dg_args *args);
/* *result = the sum, min or max (how) of the op's function over the elements of in (NULL:
   every live vertex): float partials per work-group, combined in double on the host; exact
   64-bit integer sums for DG_OP_REDUCE_INT (exact as a double below 2^53). Over nothing: 0
   for a sum, +HUGE_VAL for min, -HUGE_VAL for max. One small read-back. args may be NULL (no
   buffers, scalars 0). */
DG_API dg_status dg_reduce(dg_program *p, size_t op, const dg_frontier *in, const dg_args *args,
                           dg_reduce_op how, double *result);
/* Exclusive prefix sum of n uint32 values of `in` into `out` (may be the same buffer), any n;
   *total (may be NULL) receives the sum of all n (modulo 2^32). */
DG_API dg_status dg_scan(dg_graph *g, cl_mem in, cl_mem out, size_t n, uint32_t *total);
/* Sorts n pairs (32-bit unsigned keys, 32-bit values) on the device, in place, by key,
   ascending and stable (equal keys keep their order): an LSD radix sort, 4 bits a pass
   [Satish 2009], each tile sorted by digit in local memory before it is written out (10M
   pairs in 1.65 ms on an H200, bench/NOTES.md); up to 128 tiles (262k pairs on a GPU) one
   launch a pass, the tiles placed by a decoupled look-back (200k pairs in 0.15 ms), and at
   most one tile (2,048 pairs) in one launch. values may be NULL (keys alone). Each buffer holds at least n uint32 (else
   DG_ERR_INVALID_ARGUMENT); n < 2^31. Scratch: 2n uint32 plus the counts (and, up to 128
   tiles, the look-back's 16 words a tile a pass), kept for the next call
   (dg_stats.module_bytes). */
DG_API dg_status dg_sort_pairs(dg_graph *g, cl_mem keys, cl_mem values, size_t n);

/* ---- Breadth-first search. ---- */
typedef enum dg_bfs_strategy {
    DG_BFS_AUTO = 0,              /* the default: DG_BFS_DIRECTION_OPT */
    DG_BFS_MASK,                  /* Harish-Narayanan frontier masks, "mark, then visit" (one vertex per work-item) */
    DG_BFS_QUEUE,                 /* top-down queue built from the public advance + filter primitives */
    DG_BFS_EDGE_CHUNK,            /* edge chunks of max_edge_count edges per work-item, every level */
    DG_BFS_TOP_DOWN,              /* fused top-down queue, work-group load-balanced expansion */
    DG_BFS_DIRECTION_OPT          /* top-down / bottom-up switching on frontier size (uses in-edges) */
} dg_bfs_strategy;
typedef struct dg_bfs_stats {
    dg_bfs_strategy strategy;     /* the strategy that ran */
    uint32_t levels;              /* BFS levels (the largest distance + 1) */
    uint32_t bottom_up_levels;    /* levels run bottom-up (DIRECTION_OPT) */
    uint32_t host_round_trips;    /* blocking read-backs during the search (not counting dist/parent) */
    uint64_t vertices_reached;
    uint64_t edges_inspected;     /* adjacency entries read (bottom-up stops early) */
    double device_ms;             /* device time of the search, from the first kernel to the last */
    double sync_ms;               /* host time of the sync before it */
    double read_ms;               /* host time of reading dist and parent back (0: none read) */
    double kernel_ms;             /* the search's kernels' own times summed: device_ms less the
                                     gaps between them (launches, read-backs); -1 if unknown */
} dg_bfs_stats;
#define DG_BFS_DEFAULT_EDGE_CHUNK 16
#define DG_BFS_DEFAULT_ALPHA 15.0f
#define DG_BFS_DEFAULT_BETA 18.0f
typedef struct dg_bfs_options {   /* zero-initialised means defaults; csr_copy with DG_BFS_QUEUE
                                     is DG_ERR_INVALID_ARGUMENT */
    dg_bfs_strategy strategy;
    int32_t *parent;              /* optional, dg_vertex_id_bound() entries: the BFS tree (parent of
                                     the source is itself, -1 where unreached) */
    uint32_t max_edge_count;      /* DG_BFS_EDGE_CHUNK: edges per chunk; 0 = 16 */
    float alpha, beta;            /* DIRECTION_OPT: bottom-up when frontier edges > unvisited edges
                                     / alpha, back when frontier vertices < vertices / beta;
                                     0 = 15 and 18 (the defaults below) */
    int csr_copy;                 /* 1: run on a plain CSR copy of the graph, built and uploaded for
                                     this call (benchmarks: the price of the pages) */
    dg_bfs_stats *stats;          /* optional: filled in on success */
    /* Pathfinding (manual section 13): */
    const dg_vertex *sources;     /* optional: more sources: the search starts at distance 0 from
                                     source and from each of sources[0..source_count) (repeats
                                     allowed; with source_count > 0, source may be -1: none) */
    size_t source_count;
    const dg_vertex *targets;     /* optional: the search may stop once all of
                                     targets[0..target_count) are reached (TOP_DOWN and
                                     DIRECTION_OPT stop after that level; the other strategies
                                     search everything). Every dist >= 0 is still exact; the
                                     vertices past the stop have -1. */
    size_t target_count;
    dg_vertex *path;              /* optional, with targets: a shortest path from a source to
                                     targets[0]: path[0] = that source ... targets[0]; at most
                                     path_capacity vertices are written */
    size_t path_capacity;
    size_t *path_length;          /* optional, with targets: vertices on that path (0: targets[0]
                                     not reached), also when more than path_capacity */
    /* Results without waiting: */
    cl_mem dist_buffer;           /* optional: a buffer of dg_cl_context(g) of at least
                                     dg_vertex_id_bound() x 4 bytes; dist is copied into it on the
                                     device, enqueued on dg_cl_queue(g) before the call returns (a
                                     caller's kernel enqueued after it sees it; nothing crosses the
                                     bus when dist is NULL). Too small or of another context:
                                     DG_ERR_INVALID_ARGUMENT before anything runs. */
} dg_bfs_options;
/* dist[v] = hops from source (the nearest source), -1 if unreachable or removed; dist has
   dg_vertex_id_bound() entries (it may be NULL when only parent, path or stats are wanted). opt
   may be NULL. Syncs first. DG_ERR_NOT_FOUND for a missing source or target. */
DG_API dg_status dg_bfs(dg_graph *g, dg_vertex source, int32_t *dist, const dg_bfs_options *opt);

/* ---- Single-source shortest paths. ---- */
typedef enum dg_sssp_strategy {
    DG_SSSP_AUTO = 0,             /* the default: DG_SSSP_NEAR_FAR (DG_SSSP_BELLMAN_FORD with
                                     negative_weights) */
    DG_SSSP_BELLMAN_FORD,         /* edge-parallel: relax every edge, pass after pass, until nothing
                                     changes; the only one that accepts negative weights */
    DG_SSSP_FRONTIER,             /* frontier Bellman-Ford on the public advance + filter: relax the
                                     out-edges of the vertices improved last round ([Martinho 2021]) */
    DG_SSSP_NEAR_FAR              /* near-far delta-stepping: fused relax kernel, buckets of width
                                     delta, all control on the device */
} dg_sssp_strategy;
typedef struct dg_sssp_stats {
    dg_sssp_strategy strategy;    /* the strategy that ran */
    uint32_t iterations;          /* passes (BELLMAN_FORD), rounds (FRONTIER), relax kernels
                                     (NEAR_FAR, not counting bucket changes) */
    uint32_t phases;              /* NEAR_FAR: buckets processed (threshold increases) */
    uint32_t host_round_trips;    /* blocking read-backs during the search (not counting dist/pred) */
    float delta;                  /* NEAR_FAR: the bucket width used */
    uint64_t relaxations;         /* edges relaxed (dist[u] + w compared with dist[v]) */
    uint64_t updates;             /* relaxations that lowered a distance */
    uint64_t vertices_reached;
    double device_ms;             /* device time of the search, from the first kernel to the last */
    double sync_ms;               /* host time of the sync (and weight check) before it */
    double read_ms;               /* host time of reading dist and pred back (stats count the
                                     vertices reached on the host: dist is read for them too) */
    double kernel_ms;             /* the kernels' own times summed, as in dg_bfs_stats */
} dg_sssp_stats;
#define DG_SSSP_DEFAULT_LOCAL_ROUNDS 2
typedef struct dg_sssp_options {  /* zero-initialised means defaults */
    dg_sssp_strategy strategy;
    int32_t *pred;                /* optional, dg_vertex_id_bound() entries: a shortest-path tree
                                     (pred of the source is itself, -1 where unreached) */
    float delta;                  /* NEAR_FAR bucket width; 0 = automatic from the weights
                                     (256 x mean weight / mean out-degree; 2.5 x on a
                                     CPU device) */
    int negative_weights;         /* 1: negative weights allowed (BELLMAN_FORD or AUTO only); a
                                     negative cycle reachable from the source gives
                                     DG_ERR_NEGATIVE_CYCLE */
    dg_sssp_stats *stats;         /* optional: filled in on success */
    int local_rounds;             /* NEAR_FAR tuning: rounds a work-group relaxes on its own per
                                     launch while the queue is small; 0 = default (2), <0 = none */
    uint32_t split_degree;        /* NEAR_FAR tuning: lists longer than this are cut into pieces
                                     spread over all work-groups; 0 = default (4 x work-group) */
    /* Pathfinding (manual section 14), as in dg_bfs_options: */
    const dg_vertex *sources;     /* optional: more sources at distance 0 (source may then be -1) */
    size_t source_count;
    const dg_vertex *targets;     /* optional: NEAR_FAR stops once all of them are settled (the
                                     others search everything); every finite dist is still
                                     exact, the vertices past the stop have INFINITY */
    size_t target_count;
    dg_vertex *path;              /* optional: a shortest path from a source to targets[0] */
    size_t path_capacity;
    size_t *path_length;          /* optional: its vertices (0: targets[0] not reached) */
    cl_mem dist_buffer;           /* optional: dist copied into this buffer on the device, as in
                                     dg_bfs_options (floats, dg_vertex_id_bound() x 4 bytes); but
                                     with stats, dist is read back anyway (the host counts the
                                     vertices reached) */
} dg_sssp_options;
/* dist[v] = weight of a shortest path from source (the nearest source), INFINITY if unreachable
   or removed; dist has dg_vertex_id_bound() entries (it may be NULL when only pred, path or
   stats are wanted). Unweighted
   graphs: every weight is 1. opt may be NULL. Syncs first. Errors: DG_ERR_NOT_FOUND for a
   missing source; DG_ERR_INVALID_ARGUMENT for a negative weight (the message names the edge)
   unless opt->negative_weights; DG_ERR_NEGATIVE_CYCLE (negative_weights only). */
DG_API dg_status dg_sssp(dg_graph *g, dg_vertex source, float *dist, const dg_sssp_options *opt);

/* ---- Reachability (manual section 15). ---- */
typedef enum dg_reach_build {
    DG_REACH_BUILD_AUTO = 0,      /* DEVICE unless the DAG is so deep (many levels) that the host's
                                     traversals are estimated faster (bench/NOTES.md) */
    DG_REACH_BUILD_HOST,          /* condensation and d randomized DFS traversals on the host */
    DG_REACH_BUILD_DEVICE         /* condensation on the host, labels by level passes on the device */
} dg_reach_build;
typedef struct dg_reach_stats {
    int index_built;              /* 1: this call built the index (first use, an insertion since
                                     the last build, other options, or opt.rebuild) */
    int filter_only;              /* 1: vertices or edges were removed since the build: the labels
                                     only filter, a search decides every other query */
    dg_reach_build built_on;      /* HOST or DEVICE: where the index in use was built */
    uint32_t labels;              /* intervals per component (d) */
    size_t components;            /* strongly connected components: vertices of the indexed DAG */
    double build_ms;              /* wall time of this call's build (0 if none) ... */
    double scc_ms;                /* ... of which the condensation */
    uint64_t queries;
    uint64_t by_labels;           /* answered by the labels alone (an exact no, or an exact yes:
                                     same vertex, same component, tree interval) */
    uint64_t by_hubs;             /* of by_labels: decided by the hub bits (a hub reaches s but not
                                     t, t reaches one s does not: no; s reaches a hub that reaches
                                     t: yes) */
    uint64_t by_signatures;       /* of by_labels: decided by the signatures where the intervals
                                     could not (a descendant of t or an ancestor of s that s's or
                                     t's signature lacks: no) */
    uint64_t searched;            /* answered by a pruned search */
    uint64_t positive;            /* answers that are 1 */
    uint32_t batches, levels;     /* search batches (32 x words queries each) and their levels */
    uint64_t visited;             /* (search vertex, word of 32 queries) pairs the searches reached:
                                     a measure of their work */
    double device_ms;             /* device time of the queries (-1 without profiling) */
    double total_ms;              /* wall time of the whole call */
} dg_reach_stats;
typedef struct dg_reach_options {  /* zero-initialised means defaults */
    uint32_t labels;              /* d, intervals per component and direction, 1..8; 0 = keep the
                                     current index's (DG_REACH_LABELS for the first build) */
    uint64_t seed;                /* seed of the randomized traversals; 0 = keep the current
                                     index's (a fixed default for the first build) */
    dg_reach_build build;
    int rebuild;                  /* 1: build the index now even where it is current (also with
                                     n == 0: a way to build it ahead of the queries) */
    dg_reach_stats *stats;        /* optional: filled in on success */
    size_t search_mb;             /* device memory for the batched search, MiB; 0 = default: a
                                     sixth of a GPU's memory, a sixteenth of a CPU device's (at
                                     most 3 GiB); six arrays of 4 x components (or vertex ids)
                                     x W bytes, at most 2 GiB each. More memory, more queries per
                                     batch (32 x W, W <= 1024); used only as far as the queries
                                     need it; the graph's device state keeps it until dg_destroy */
} dg_reach_options;
#ifndef DG_REACH_LABELS
#define DG_REACH_LABELS 3
#endif
#ifndef DG_REACH_HUBS             /* hub components whose reachability each component records, */
#define DG_REACH_HUBS 64          /* 0..64 (manual section 15) */
#endif
/* reachable[i] = 1 if a directed path src[i] -> dst[i] exists (a vertex reaches itself), else 0.
   Undirected graphs: same connected component. Syncs first; builds or refreshes the index
   when needed (after insertions; removals keep it usable). Errors: DG_ERR_INVALID_ARGUMENT
   (NULL arrays with n > 0, bad option), DG_ERR_NOT_FOUND (a query names a removed or unknown
   vertex; the message gives the query's index), DG_ERR_LIMIT (the search memory cannot hold
   one word per component, or per vertex id after removals: raise opt.search_mb); on these
   errors reachable is not written (a device failure in a later block of 2^22 queries may
   leave the earlier blocks' answers written). */
DG_API dg_status dg_reach(dg_graph *g, const dg_vertex *src, const dg_vertex *dst, size_t n,
                          uint8_t *reachable);
DG_API dg_status dg_reach_ex(dg_graph *g, const dg_vertex *src, const dg_vertex *dst, size_t n,
                             uint8_t *reachable, const dg_reach_options *opt);

/* ---- Whole-graph algorithms. Arrays are indexed by vertex id, dg_vertex_id_bound() long. ----
   dg_components, dg_pagerank, dg_scc and dg_triangles run on the device (they sync first;
   triangles orient a directed graph on the host, once per graph version; dg_scc hands the
   rest of a graph whose sweeps run too long to the host's Tarjan: manual section 17). */
/* label[v] = the smallest id in v's weakly connected component (edges in either direction); -1
   for removed ids; *count = components among live vertices (either pointer may be NULL; with
   label NULL the count is made on the device and the labels are not read back). */
DG_API dg_status dg_components(dg_graph *g, dg_vertex *label, size_t *count);
/* As dg_components for strongly connected components (undirected graphs: the same). */
DG_API dg_status dg_scc(dg_graph *g, dg_vertex *label, size_t *count);
/* Triangles {a,b,c} of three distinct vertices in the underlying undirected simple graph (a and
   b adjacent if either arc exists; self-loops ignored); per_vertex[v] = triangles containing v
   (may be NULL); either pointer may be NULL. */
/* Segmented intersection: counts[i] = how many entries the lists of u = pairs[2i] and
   v = pairs[2i + 1] have in common (the neighbours of both; a directed graph's out-lists), for
   the n pairs in the device buffer pairs (2n dg_vertex), into the device buffer counts (n
   uint32), both on the graph's context (dg_cl_context); nothing is read back but a status.
   On the device, on a sorted copy of the out-lists made at the first call after a change
   (4 bytes an arc; two radix sorts, as dg_triangles' orientation): each entry of the shorter
   list is searched in the longer (binary search, each starting where the last ended); a pair
   whose shorter list has more than DG_TC_HEAVY entries is spread (on a GPU) over a work-group, which
   first samples the longer list into local memory.
   Errors: a NULL or too small buffer, a negative id -> DG_ERR_INVALID_ARGUMENT; an id never
   created or removed -> DG_ERR_NOT_FOUND (the first such pair named; counts undefined). */
DG_API dg_status dg_intersect(dg_graph *g, cl_mem pairs, size_t n, cl_mem counts);
DG_API dg_status dg_triangles(dg_graph *g, uint64_t *total, uint64_t *per_vertex);
typedef struct dg_pagerank_stats {
    uint32_t iterations;          /* iterations run */
    float change;                 /* L1 change of the last one */
    int converged;                /* 1: change < tolerance; 0: max_iterations ran out */
} dg_pagerank_stats;
typedef struct dg_pagerank_options {  /* zero-initialised means defaults */
    float damping;                /* 0 = 0.85; else in (0, 1) */
    float tolerance;              /* stop when the L1 change of an iteration is below this; 0 = 1e-6 */
    uint32_t max_iterations;      /* 0 = 100 */
    dg_pagerank_stats *stats;     /* optional: filled in on success */
} dg_pagerank_options;
/* rank over the live vertices, summing to 1; rank[v] = (1-d)/n + d * (sum over in-arcs u->v of
   rank[u]/outdeg(u) + (rank held by vertices without out-arcs)/n); removed ids get 0; an
   undirected edge is an arc each way; opt may be NULL. Float arithmetic (the sums are within a
   few float roundings of a double computation). */
DG_API dg_status dg_pagerank(dg_graph *g, float *rank, const dg_pagerank_options *opt);

/* ---- Results that follow the graph (manual section 18). ----
   A result keeps an algorithm's answer on the device and brings it up to date after the graph
   changed, paying for what changed: dg_result_update after any mix of edge insertions,
   removals, weight changes, vertex additions and removals (single calls, host or device
   batches, dg_add_edges_cl). The answer is the one a fresh run gives: the same distances and
   labels, ranks within the tolerance. The first update, and the cases listed in section 18,
   run the algorithm from nothing (dg_result_stats.full and .reason say so). */
typedef enum dg_result_kind {
    DG_RESULT_BFS = 1,            /* hops from desc.source: values int32_t, as dg_bfs's dist */
    DG_RESULT_SSSP,               /* shortest paths from desc.source: float, as dg_sssp's dist */
    DG_RESULT_COMPONENTS,         /* weakly connected components: dg_vertex, as dg_components */
    DG_RESULT_PAGERANK            /* float, as dg_pagerank (desc.pagerank: its options) */
} dg_result_kind;
typedef struct dg_result_desc {
    dg_result_kind kind;
    dg_vertex source;             /* BFS, SSSP */
    dg_pagerank_options pagerank; /* PAGERANK (zero: defaults; its stats pointer is ignored) */
    float budget;                 /* BFS, SSSP: an update still running after this many times the
                                     host time of the last full run (at least 0.5 ms) gives up and
                                     runs from nothing, and one of more than 4,096 changes whose
                                     reading alone (0.25 us each) would take longer than that run
                                     does not start; 0: 2; negative: neither (repeatable paths) */
} dg_result_desc;
typedef struct dg_result_stats {
    int full;                     /* 1: this update ran the algorithm from nothing */
    const char *reason;           /* why (a static string), "" when it did not */
    size_t changes;               /* changes of the graph it took in (an undirected edge once) */
    size_t invalidated;           /* BFS, SSSP: vertices whose distance trimming took away */
    uint32_t rounds;              /* device passes: trimming and propagation rounds (BFS, SSSP),
                                     hooking passes (components), iterations (PageRank) */
    uint64_t edges;               /* arcs visited by trimming and repair (BFS, SSSP: propagation's
                                     queued rounds are not counted), re-hooked or inserted edges
                                     (components), iterations x arcs (PageRank) */
    size_t components;            /* COMPONENTS: how many */
    double device_ms;             /* device time, first kernel to last (with profiling) */
    double total_ms;              /* host time of the call */
} dg_result_stats;
typedef struct dg_result dg_result;
/* Errors: DG_ERR_INVALID_ARGUMENT (bad kind), DG_ERR_NOT_FOUND (no such source). Nothing is
   computed until the first update. Destroy results before their graph (dg_destroy releases
   what their device held; dg_result_destroy then only frees the handle). */
DG_API dg_status dg_result_create(dg_graph *g, const dg_result_desc *desc, dg_result **out);
DG_API void      dg_result_destroy(dg_result *r);                         /* NULL is fine */
/* Brings r up to date with its graph (syncing it) and writes the answer into values
   (dg_vertex_id_bound() entries of the kind's type) unless values is NULL (it then stays on
   the device: no read-back). stats may be NULL. Errors are those of the algorithm's fresh
   run (a removed source: DG_ERR_NOT_FOUND; a negative weight: DG_ERR_INVALID_ARGUMENT); after
   one, the next update runs from nothing. */
DG_API dg_status dg_result_update(dg_result *r, void *values, dg_result_stats *stats);

/* ---- Files. ---- */
/* Ids in files are kept (1-based formats become 0-based); vertices 0..max id are created.
   AUTO decides by extension (.mtx, .gr, .graph/.metis, .gra, anything else: edge list), then by
   content (%%MatrixMarket, graph_for_greach, DIMACS "p sp"). Edge lists: "u v" or "u v w" per
   line, '#' or '%' comments, spaces or tabs, CRLF accepted. Matrix Market: coordinate,
   pattern|real|integer, general|symmetric (symmetric loads both directions), 1-based. DIMACS
   .gr: "p sp n m", "a u v w", 1-based. METIS .graph: "n m [fmt [ncon]]", then one line of 1-based
   neighbours per vertex (edge weights when fmt is 1 or 11); undirected by definition, so each
   edge must be listed on both its vertices' lines (else DG_ERR_PARSE names the first line
   that lists a neighbour which does not list it back). GRAIL
   .gra: "graph_for_greach", n, then "i: j k ... #" lines. Repeated edges in a file are one edge
   whose weight is the smallest given; an edge already in the graph keeps its weight. An id of
   a removed vertex gives DG_ERR_NOT_FOUND. A malformed file gives DG_ERR_PARSE with
   "file:line: what" in dg_error_message. On any failure the graph is unchanged. */
typedef enum dg_format { DG_FORMAT_AUTO = 0, DG_FORMAT_EDGE_LIST, DG_FORMAT_MATRIX_MARKET,
                         DG_FORMAT_DIMACS, DG_FORMAT_METIS, DG_FORMAT_GRAIL,
                         DG_FORMAT_SNAPSHOT } dg_format;
DG_API dg_status dg_load(dg_graph *g, const char *path, dg_format format);
/* Loading with options. A DG_FORMAT_SNAPSHOT file (found by its first bytes under AUTO) loads
   only into an empty graph of the same kind (undirected, weighted: else
   DG_ERR_INVALID_ARGUMENT) and restores every id, removed ones as removed. */
typedef struct dg_load_options {
    dg_format format;             /* as in dg_load */
    int compact_ids;              /* 1: only ids that appear in the file's edges become vertices,
                                     numbered from dg_vertex_id_bound() (0..k-1 in an empty graph)
                                     in increasing order of the file's id; header vertex counts
                                     are then ignored. Not for snapshots. */
    int64_t *id_map;              /* optional, with compact_ids: id_map[v] = the file's id of
                                     vertex v (0-based as in dg_load), for v < id_map_capacity;
                                     entries of other vertices are left alone */
    size_t id_map_capacity;
    void (*progress)(double fraction, void *user);   /* optional: called while the source is
                                     read, with the part read so far (0..1), at least every 1%
                                     of it (every 64 KiB block at most often; a file whose size
                                     cannot be learnt, a pipe, reports only the end), and with
                                     1 once it has parsed, before the graph changes */
    void *progress_user;
} dg_load_options;
DG_API dg_status dg_load_ex(dg_graph *g, const char *path, const dg_load_options *opt);
/* As dg_load_ex, from size bytes in memory (not copied; read while the call runs). name (NULL:
   "memory") stands for the path: in messages ("name:line: ...") and for AUTO's extension rule. */
DG_API dg_status dg_load_memory(dg_graph *g, const void *data, size_t size, const char *name,
                                const dg_load_options *opt);

/* ---- Saving and exporting. ---- */
/* Writes the graph to path in format: EDGE_LIST, MATRIX_MARKET, DIMACS, METIS (undirected graphs
   without self-loops), GRAIL (unweighted graphs) or SNAPSHOT (binary, exact, fast; AUTO means
   SNAPSHOT). dg_load of the file into an empty graph with the same desc gives the same live
   vertices, edges and weights (weights round-trip exactly: 9 significant digits). Text formats
   keep ids, so a removed id comes back as an isolated vertex (an edge list names the id bound
   in a "# vertices N" comment, which dg_load reads); SNAPSHOT restores removed ids as removed.
   A SNAPSHOT is the store's own image (pages, page index, LA table, directory, free ids; on a
   big-endian host a sorted CSR instead): loading one into an empty graph of the same page
   size, kind and reuse_ids reads the arrays straight into the store, checks a word-wise hash,
   then the whole store as dg_validate does but in time linear in the file (free list, page
   order, page layout and fill, large lists and their tables, directory, counts, free ids, live
   targets, no NaN, no list naming a vertex twice, and the arcs symmetric or the in-lists the
   out-lists reversed, by equal hash sums of each arc and its mirror), and builds nothing:
   several times faster than any parse, with no memory beyond the graph's. A file that fails
   any check is DG_ERR_PARSE and the graph stays empty. Into a graph of another page size or reuse_ids it goes through
   a temporary graph and a batch (slower, exact all the same). Snapshots of earlier versions
   (a CSR) still load. Text formats write lists in increasing neighbour order. A format that cannot hold the graph (METIS
   of a directed graph, an infinite weight in a text format) is DG_ERR_INVALID_ARGUMENT; a write
   failure is DG_ERR_IO, and then an existing file at path is left as it was (the file is
   written as path.tmp and renamed). */
DG_API dg_status dg_save(dg_graph *g, const char *path, dg_format format);
/* The out-arcs as CSR over ids 0..dg_vertex_id_bound()-1: offsets has bound + 1 entries and
   offsets[bound] is the number of arcs (an undirected edge is two arcs, a self-loop one);
   targets (and weights, which may be NULL) have that many; targets == NULL fills offsets only.
   Each list in increasing target order; removed ids have empty lists. */
DG_API dg_status dg_export_csr(const dg_graph *g, int64_t *offsets, dg_vertex *targets, float *weights);

#ifdef __cplusplus
}
#endif
#endif /* DYNGRAPH_H */

/* ================= Stop now, if you are only interested in the API. ================= */

/* =========================================================================
   IMPLEMENTATION
   ========================================================================= */
#ifdef DYNGRAPH_IMPLEMENTATION
#ifndef DYNGRAPH_IMPLEMENTATION_DONE
#define DYNGRAPH_IMPLEMENTATION_DONE

#include <string.h>
#include <stdlib.h>      /* qsort, bsearch (and the default allocator) */
#include <stdio.h>
#include <stdarg.h>
#include <errno.h>
#include <math.h>
#include <time.h>        /* clock, timespec_get (C11) for the sync timing */
#if defined(__linux__) && !defined(DYNGRAPH_NO_HUGE_PAGES)
#include <sys/mman.h>    /* madvise(MADV_HUGEPAGE), where the compile mode declares it: dg__huge */
#endif

#include "dyngraph_kernels.cl.h"   /* dg__kernel_source: the OpenCL C program */

#if defined(DG_MALLOC) && defined(DG_REALLOC) && defined(DG_FREE)
/* all three given */
#elif !defined(DG_MALLOC) && !defined(DG_REALLOC) && !defined(DG_FREE)
#define DG_MALLOC(sz) malloc(sz)
#define DG_REALLOC(p, sz) realloc((p), (sz))
#define DG_FREE(p) free(p)
#else
#error "dyngraph.h: define all of DG_MALLOC, DG_REALLOC and DG_FREE, or none of them"
#endif
#ifndef DG_ASSERT
#include <assert.h>
#define DG_ASSERT(x) assert(x)
#endif

#define DG__HDR 3                 /* header entries of every page */
#define DG__MAX_IDS 0x7ffffffe    /* at most this many vertex ids (the last id is 2^31 - 3) */
#define DG__MAX_PAGES 0x7fffffff  /* at most this many pages a store (page numbers are int32) */
#define DG__BATCH_KEEP_MIN 1      /* batch repeats keep the smallest weight, not the first */
#define DG__BATCH_BOTH_DIRS 2     /* batch adds v->u too (symmetric files into directed graphs) */
#define DG__BATCH_OWN 4           /* the edges are the loader's, handed over: the batch frees them
                                     once its arcs are made (less memory at the peak of a load) */
#define DG__RUN_ENTRIES 65536     /* a batch lays out runs of up to this many entries' worth of pages */

/* ---- The page index: one entry per page of a store, mirrored to the device as it is. ---- */
typedef struct dg__pindex {
    int32_t first;   /* first vertex id of the page (the owner, for a large list's pages); -1 if free */
    int32_t la_pos;  /* position of the page in its large adjacency list, or -1 */
    int32_t la_len;  /* pages of that large adjacency list, or -1 */
    int32_t la_tab;  /* first page of a large list: offset of its page table in the LA table; else -1 */
} dg__pindex;

/* ---- What the host keeps per page besides the index (one cache line serves a mutation). ---- */
typedef struct dg__phost {
    int32_t next, prev;   /* logical page order; next links the free list of released pages */
    uint32_t fill;        /* entries in use: header, records, slots */
    uint32_t dirty;       /* changed since the last device sync (then also in the store's dlist) */
    uint64_t segs;        /* which segments of the page changed (bit i: entries i*S .. i*S+S-1, S =
                             max(16, P/64): 64-byte pieces for P <= 1024); all ones: the page;
                             0 while the page is stale (dg__store.stale) */
} dg__phost;

/* ---- Directory blocks changed since the last sync, and those a device batch changed (shared
   by the stores: their entries interleave). A block is DG__DIR_BLOCK vertex ids. ---- */
#define DG__DIR_BLOCK (1u << DG_DIR_BLOCK_LOG)
typedef struct dg__dirdirty {
    uint8_t *blk;         /* per block: 1 if changed on the host since the last sync */
    uint32_t *list;       /* the changed blocks, n of them */
    size_t n, cap;        /* cap: blocks the arrays hold */
    uint8_t *dev;         /* per block: 1 if a device batch moved lists of it: the device's entries
                             are the truth until the host reads the block back (>>mirror,
                             ownership); never 1 where blk is */
    size_t ndev;          /* blocks with dev set */
    size_t singles;       /* blocks host calls read back since the last device batch: past
                             DG__DIR_SINGLES, the rest go in one (dg__fresh_blocks) */
} dg__dirdirty;
#define DG__DIR_SINGLES 64

/* ---- A store: the slotted pages of one direction (out-edges, or in-edges). ---- */
typedef struct dg__store {
    int32_t *pool;        /* page_cap pages of P entries */
    float *wpool;         /* weights, same shape (out-store of a weighted graph only), else NULL */
    dg__pindex *idx;      /* page index, page_cap entries */
    dg__phost *ph;        /* per page, host only: order links, entries in use, changed flag */
    uint32_t page_cap;    /* pages allocated in the arrays above */
    uint32_t page_hw;     /* pages ever handed out (high-water mark) */
    int32_t free_head;    /* free list of released pages, -1 if empty */
    uint32_t nfree;
    int32_t head, tail;   /* first and last page in logical order, -1 if none */
    size_t live_pages, large_lists, large_pages, changed_pages;
    size_t compact_credit;   /* pages host changes added since its last compaction (dg__auto_compact) */
    int32_t compact_next;    /* the page a compaction's walk goes on from, -1: none under way */
    int32_t *dir;         /* this store's view of the vertex directory: (page, record offset) of
                             vertex v at dir[ds*v], dir[ds*v+1]; the stores' entries interleave */
    uint32_t ds;          /* directory stride: 2 per store */
    int32_t *latab;       /* LA table: per large list a segment [capacity, page 0, page 1, ...] */
    size_t latab_len, latab_cap, latab_garbage;
    int32_t *dlist;       /* the pages changed since the last sync (changed_pages of them; room for page_cap) */
    uint32_t *stale;      /* a bit a page (page_cap of them): a device batch changed the page; the
                             device's copy is the truth until the host reads it back (>>mirror,
                             ownership). Bits, not a field of dg__phost, and no list: a 100k-edge
                             batch marks ~100k pages, a miss each in 32-byte headers (0.5-1.9 ms
                             on the H200 machine's host), a hit each in 22 KB of bits (Kronecker
                             scale 22); reading all stale pages back walks the bits */
    size_t nstale;        /* bits set */
    int latab_moved;      /* the LA table was compacted since the last sync: send all of it */
    dg__dirdirty *dd;     /* the graph's changed directory blocks */
    struct dg__lhash **lh;  /* per vertex id (lh_cap of them): the hash index of a long list
                               that batches touched, or NULL (see >>lhash) */
    size_t lh_cap, lh_bytes;
    dg_vertex *lhv;       /* the vertices that have one (nlh of them, room for lhv_cap) */
    size_t nlh, lhv_cap;
    uint8_t *lh_scans;    /* per vertex id (lh_scans_cap of them): batches that scanned its long
                             list for want of an index (saturating), see dg__lh_need */
    size_t lh_scans_cap;
    int32_t *ploc;        /* several devices (>>shard): page p's number on the device holding it, */
    uint8_t *pdev;        /* and that device (0xff: none); ploc_cap pages of each (the sync grows them) */
    uint32_t ploc_cap;
} dg__store;
/* A page's stale bit (dg__store.stale). */
static int dg__is_stale(const dg__store *s, int32_t p) { return (int)(s->stale[(uint32_t)p >> 5] >> ((uint32_t)p & 31)) & 1; }
static void dg__stale_set(dg__store *s, int32_t p) {
    uint32_t *w = &s->stale[(uint32_t)p >> 5], b = 1u << ((uint32_t)p & 31);
    if (!(*w & b)) { *w |= b; s->nstale++; }
}
static void dg__stale_clear(dg__store *s, int32_t p) {
    uint32_t *w = &s->stale[(uint32_t)p >> 5], b = 1u << ((uint32_t)p & 31);
    if (*w & b) { *w &= ~b; s->nstale--; }
}

/* One list of a page being laid out again (batch insertion, spreading free space). */
typedef struct dg__item { dg_vertex v; uint32_t deg, k; size_t off, ai; } dg__item;

/* The change log (>>result): while a result lives, every mutation appends what it changed
   (kind DG__CH_*, the ends, the weight given); results take in the entries past the one
   they last saw. Entries before the oldest live result's are dropped; past DG__CLOG_MAX (or
   a load) all are, and results older than `lost` run from nothing. */
enum { DG__CH_INSERT = 1, DG__CH_DELETE, DG__CH_WEIGHT, DG__CH_REMOVE };
typedef struct dg__change { int32_t kind, u, v; float w; } dg__change;
typedef struct dg__clog {
    dg__change *e;
    size_t n, cap;
    uint64_t base;                /* the sequence number of e[0] */
    uint64_t lost;                /* changes before this one were dropped unseen */
    struct dg_result *results;    /* the live results (a list through dg_result.next) */
    uint8_t *seen;                /* a bit per id, all clear between uses (dg__res_unique) */
    size_t seen_bytes;
} dg__clog;
#define DG__CLOG_MIN ((size_t)1 << 16)   /* entries kept at least, or the id bound / 2 */

struct dg_graph {
    dg_desc desc;
    uint32_t P;           /* page size in entries */
    uint32_t seg_shift;   /* log2 of the entries of a changed-page segment (dg__phost.segs) */
    int nstores;          /* 1 (undirected: the out-store is its own reverse) or 2 */
    dg__store st[2];      /* st[0] out-edges, st[1] in-edges (directed graphs) */
    int32_t *dir;         /* the vertex directory: per vertex id, (page, offset) in each store */
    size_t vcap;          /* capacity of the directory, in vertices */
    size_t id_bound, nverts, nedges, narcs;
    float wmin;           /* smallest weight ever given (0 if none was negative): dg_sssp checks
                             the weights on the device only after a negative one was seen */
    uint32_t vert_per_page; /* vertices a fresh page accepts under the 60% rule */
    uint64_t *mark;       /* per-vertex bits for batch deduplication (grown lazily), all 0 between calls */
    size_t mark_cap;      /* in 64-bit words */
    struct dg__arc *bscr[3];   /* a batch's arc arrays, kept for the next batch (dg__bscratch) */
    size_t bscr_cap[3];        /* in arcs */
    dg__item *items;      /* scratch: the lists of the pages being laid out again */
    int32_t *lafresh;     /* while a device batch's room is laid out on the host (dg__room_layout):
                             where the large lists' new continuation pages go, (page, end) pairs,
                             for the device to set up (dg_up_la_init); else NULL */
    size_t nlafresh;
    int32_t *lagrow;      /* ... and the large lists grown, (first page, pages before) pairs, for
                             the device to write their pages' index entries (dg_up_la_grow) */
    size_t nlagrow;
    int32_t *runs;        /* scratch: the pages of a run */
    uint32_t run_max;     /* pages a batch lays out together at most */
    int32_t *tmp;         /* run_max pages of scratch (and of weights) */
    float *wtmp;
    dg__dirdirty dd;      /* directory blocks changed since the last sync */
    dg_vertex *free_ids;  /* reuse_ids: removed ids, handed out again by dg_add_vertex (a stack
                             of nfree_ids; room for free_ids_cap) */
    size_t nfree_ids, free_ids_cap;
    uint64_t ver_ins;     /* counts calls that may add reachability (vertex or edge insertions) */
    uint64_t ver_del;     /* counts calls that may take it away (removals) */
    struct dg__reach *reach; /* the reachability index (dg_reach), built on first use */
    dg__clog clog;        /* the changes results have yet to take in (>>result) */
    struct dg__dev *dev;  /* the OpenCL side, set up by the first device operation (else NULL) */
    int32_t *cut;         /* shards by vertex range (several devices, issue 20: bench/NOTES.md's
                             plan, step 2; set by a test hook for now): shard i holds the ids
                             [cut[i], cut[i + 1]), cut[0] = 0, cut[ncut] = INT32_MAX; NULL: one
                             shard. Every page holds one shard's lists (dg__shard_set) */
    int ncut;             /* shards */
    size_t shard_bound;   /* the id bound the shards were planned for (several devices, >>shard) */
    struct dg__dev **devs; /* several devices (issue 20's plan, step 1; dg__devices_want): all of
                             them, devs[0] == dev; NULL with one device */
    int ndev;
    unsigned char *xpin;  /* several devices: pinned memory of the first (dg_host_alloc) through */
    size_t xpin_bytes;    /* which the devices exchange what they found (dg__bfs_multi), */
    uint32_t *xlv;        /* and into which they read their level counters */
    char err[4096];
};
static void dg__dev_free(dg_graph *g);
static void dg__reach_free(dg_graph *g);
static void dg__results_detach(dg_graph *g);
static void dg__dev_stats(const dg_graph *g, dg_stats *out);
/* Ownership (>>mirror): pages a device batch wrote are stale on the host until read back.
   Every host routine that reads or writes lists first calls one of these: all stale pages,
   or those of one list (const graphs too: the read-back is invisible to the caller). */
static dg_status dg__fresh_pages(dg_graph *g, int si, const int32_t *pages, size_t n);
static dg_status dg__fresh_stale(dg_graph *g, int si);
static dg_status dg__fresh_all(const dg_graph *cg);
static dg_status dg__fresh_list(const dg_graph *cg, int si, dg_vertex v, int write);
static dg_status dg__fresh_blocks(dg_graph *g, uint32_t *b, size_t n, int gather);   /* directory blocks */
/* Batches on the device (>>update): whether a batch of n edges goes there, and the batch. */
static int dg__batch_on_device(const dg_graph *g, size_t n);
static dg_status dg__dev_batch(dg_graph *g, const dg_edge *he, cl_mem de, size_t n, int add, const char *fn,
                               size_t *changed);
/* Shards by vertex range (>>validate's neighbour, dg__shard_set): set, or dropped with n <= 1. */
static dg_status dg__shard_set(dg_graph *g, const int32_t *bounds, int n);

/* =========================================================================
   Errors, logging and memory   >>base
   ========================================================================= */
DG_API const char *dg_status_string(dg_status s) {
    switch (s) {
    case DG_OK: return "DG_OK";
    case DG_ERR_INVALID_ARGUMENT: return "DG_ERR_INVALID_ARGUMENT";
    case DG_ERR_NOT_FOUND: return "DG_ERR_NOT_FOUND";
    case DG_ERR_EXISTS: return "DG_ERR_EXISTS";
    case DG_ERR_OUT_OF_MEMORY: return "DG_ERR_OUT_OF_MEMORY";
    case DG_ERR_DEVICE_MEMORY: return "DG_ERR_DEVICE_MEMORY";
    case DG_ERR_OPENCL: return "DG_ERR_OPENCL";
    case DG_ERR_NO_DEVICE: return "DG_ERR_NO_DEVICE";
    case DG_ERR_IO: return "DG_ERR_IO";
    case DG_ERR_PARSE: return "DG_ERR_PARSE";
    case DG_ERR_LIMIT: return "DG_ERR_LIMIT";
    case DG_ERR_CORRUPT: return "DG_ERR_CORRUPT";
    case DG_ERR_NEGATIVE_CYCLE: return "DG_ERR_NEGATIVE_CYCLE";
    case DG_ERR_UNSUPPORTED: return "DG_ERR_UNSUPPORTED";
    }
    return "DG_ERR_UNKNOWN";
}

DG_API const char *dg_error_message(const dg_graph *g) { return g ? g->err : ""; }

DG_API const char *dg_kernel_source(void) { return dg__kernel_source; }

/* printf-style format checking of the message helpers, where the compiler offers it. */
#ifndef DG__PRINTF
#if defined(__GNUC__) || defined(__clang__)
#define DG__PRINTF(fmt, first) __attribute__((format(printf, fmt, first)))
#else
#define DG__PRINTF(fmt, first)
#endif
#endif
static dg_status dg__fail(dg_graph *g, dg_status s, const char *fmt, ...) DG__PRINTF(3, 4);
static dg_status dg__fail(dg_graph *g, dg_status s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->err, sizeof g->err, fmt, ap);
    va_end(ap);
    if (g->desc.logger.func) g->desc.logger.func(DG_LOG_ERROR, g->err, g->desc.logger.user_data);
    return s;
}

static void *dg__alloc_with(const dg_allocator *a, size_t bytes) {
    if (bytes == 0) bytes = 1;
    return a->alloc_fn ? a->alloc_fn(bytes, a->user_data) : DG_MALLOC(bytes);
}
static void dg__free_with(const dg_allocator *a, void *p) {
    if (!p) return;
    if (a->free_fn) a->free_fn(p, a->user_data); else DG_FREE(p);
}
#ifndef DYNGRAPH_NO_OPENCL
/* A failure whose detail may be long (a build log): dg_error_message keeps what fits, the
   log callback gets all of it. */
static dg_status dg__fail_long(dg_graph *g, dg_status s, const char *head, const char *body) {
    size_t nh = strlen(head), nb = strlen(body);
    char *all = g->desc.logger.func ? (char *)dg__alloc_with(&g->desc.allocator, nh + nb + 1) : NULL;
    snprintf(g->err, sizeof g->err, "%s%s", head, body);
    if (all) {
        memcpy(all, head, nh);
        memcpy(all + nh, body, nb + 1);
    }
    if (g->desc.logger.func) g->desc.logger.func(DG_LOG_ERROR, all ? all : g->err, g->desc.logger.user_data);
    dg__free_with(&g->desc.allocator, all);
    return s;
}
#endif

/* Blocks of DG__HUGE_MIN bytes and more (the pools, the directory, the page records, a
   batch's arcs) are offered transparent huge pages on Linux: madvise(MADV_HUGEPAGE) over the
   whole 2 MiB pages inside the block. Where the kernel's setting is "madvise" (the usual one)
   this is what turns them on: fewer TLB misses and page faults (measured on the development VM:
   host batches 12% and a small sync's staging 18% faster, snapshot loads 18% more MB/s; within
   noise on the GPU machine's host: bench/NOTES.md, issue 14, huge pages). Only an advice: it
   does nothing where madvise is not declared (strict -std=c99, whose headers hide it; GNU
   modes, the default, declare it), nothing on other systems, nothing with
   -DDYNGRAPH_NO_HUGE_PAGES (manual section 10). */
#define DG__HUGE_PAGE ((size_t)2 << 20)
#define DG__HUGE_MIN ((size_t)4 << 20)
static void *dg__huge(void *p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(DYNGRAPH_NO_HUGE_PAGES)
    if (p && bytes >= DG__HUGE_MIN) {
        size_t a = ((size_t)(uintptr_t)p + DG__HUGE_PAGE - 1) & ~(DG__HUGE_PAGE - 1);
        size_t b = ((size_t)(uintptr_t)p + bytes) & ~(DG__HUGE_PAGE - 1);
        if (b > a) (void)madvise((void *)(uintptr_t)a, b - a, MADV_HUGEPAGE);
    }
#else
    (void)bytes;
#endif
    return p;
}
static void *dg__alloc(dg_graph *g, size_t bytes) { return dg__huge(dg__alloc_with(&g->desc.allocator, bytes), bytes); }
static void dg__free(dg_graph *g, void *p) { dg__free_with(&g->desc.allocator, p); }
/* Grows (or shrinks) a block from old_bytes to new_bytes; on failure the old block is intact. */
static void *dg__realloc(dg_graph *g, void *p, size_t old_bytes, size_t new_bytes) {
    void *q;
    if (!g->desc.allocator.alloc_fn) return dg__huge(DG_REALLOC(p, new_bytes ? new_bytes : 1), new_bytes);
    q = dg__alloc(g, new_bytes);
    if (!q) return NULL;
    if (p) { memcpy(q, p, old_bytes < new_bytes ? old_bytes : new_bytes); dg__free(g, p); }
    return q;
}
/* Reallocates *pp to n elements of size sz, n*sz checked for overflow. 0 on failure (unchanged). */
static int dg__grow(dg_graph *g, void **pp, size_t old_n, size_t n, size_t sz) {
    void *q;
    if (n > (size_t)-1 / sz) return 0;
    q = dg__realloc(g, *pp, old_n * sz, n * sz);
    if (!q) return 0;
    *pp = q;
    return 1;
}
/* FNV-1a hashes (program keys, the binary cache, snapshots) and little-endian u64s in files. */
static uint64_t dg__fnv(uint64_t h, const char *s, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) { h ^= (unsigned char)s[i]; h *= 1099511628211ULL; }
    return h;
}
#define DG__FNV_SEED 14695981039346656037ULL
static void dg__put_u64(unsigned char *b, uint64_t v) { int i; for (i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i)); }
static uint64_t dg__get_u64(const unsigned char *b) { uint64_t v = 0; int i; for (i = 7; i >= 0; i--) v = v << 8 | b[i]; return v; }

/* In functions with `dg_status st` and a `done:` label. */
#define DG__TRY(x) do { if ((st = (x)) != DG_OK) goto done; } while (0)
static dg_status dg__oom(dg_graph *g, const char *what) {
    return dg__fail(g, DG_ERR_OUT_OF_MEMORY, "out of host memory (%s)", what);
}
static int dg__is_weighted(const dg_graph *g) { return g->desc.weighted != 0; }

/* =========================================================================
   The page store: pages, the index, the LA table, the directory   >>store
   ========================================================================= */
#define DG__PAGE(g, s, p) ((s)->pool + (size_t)(p) * (g)->P)
/* slot i of a page: record offset at P-2-2i, vertex id at P-1-2i */
#define DG__SLOT_OFF(g, pg, i) ((pg)[(g)->P - 2 - 2 * (i)])
#define DG__SLOT_VID(g, pg, i) ((pg)[(g)->P - 1 - 2 * (i)])

#define DG__DIRTY_IDX 4          /* dg__phost.dirty: the index entry changed too */
static void dg__touch(dg__store *s, int32_t p) {
    if (!s->ph[p].dirty) { s->ph[p].dirty = 1; s->dlist[s->changed_pages++] = p; }
    s->ph[p].dirty |= DG__DIRTY_IDX;
    s->ph[p].segs = ~(uint64_t)0;
}
/* Marks entries lo..hi-1 of page p changed (a single-edge change sends ~64 bytes, not a page). */
static void dg__touch_range(const dg_graph *g, dg__store *s, int32_t p, uint32_t lo, uint32_t hi) {
    uint32_t a = lo >> g->seg_shift, b = (hi - 1) >> g->seg_shift;
    if (!s->ph[p].dirty) { s->ph[p].dirty = 1; s->dlist[s->changed_pages++] = p; s->ph[p].segs = 0; }
    for (; a <= b; a++) s->ph[p].segs |= (uint64_t)1 << a;
}
/* The segments of a page but those wholly within entries e0..e1-1 (what a page written whole
   here sends when the device writes those entries itself). */
static uint64_t dg__segs_outside(const dg_graph *g, uint32_t e0, uint32_t e1) {
    const uint32_t nseg = g->P >> g->seg_shift;
    uint64_t m = nseg >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << nseg) - 1;   /* (the page's segments) */
    uint32_t x;
    for (x = (e0 + (1u << g->seg_shift) - 1) >> g->seg_shift; x < e1 >> g->seg_shift; x++) m &= ~((uint64_t)1 << x);
    return m;
}
/* Marks only the index entry of page p changed (the page's entries are as the device has them). */
static void dg__touch_idx(dg__store *s, int32_t p) {
    if (!s->ph[p].dirty) { s->ph[p].dirty = 1; s->dlist[s->changed_pages++] = p; s->ph[p].segs = 0; }
    s->ph[p].dirty |= DG__DIRTY_IDX;
}
static void dg__touch_at(const dg_graph *g, dg__store *s, size_t pos) {
    uint32_t e = (uint32_t)(pos & (g->P - 1));
    dg__touch_range(g, s, (int32_t)(pos / g->P), e, e + 1);
}
/* Free entries of page p: the gaps after lists plus the space between records and slots. */
static uint32_t dg__free_entries(const dg_graph *g, const dg__store *s, int32_t p) {
    return g->P - s->ph[p].fill;
}
/* Free entries at the end of the records only (where a new vertex goes). */
static uint32_t dg__end_free(const dg_graph *g, const int32_t *pg) {
    return g->P - (uint32_t)pg[1] - 2u * (uint32_t)pg[0];
}
/* capacity of the first page of a large list, and of each continuation page */
static uint32_t dg__la_c0(const dg_graph *g) { return g->P - DG__HDR - 1 - 2; }
static uint32_t dg__la_cn(const dg_graph *g) { return g->P - DG__HDR; }

/* New capacity for arrays that must hold `need` items: grows by half for small steps (amortised
   O(1)), exactly (+1/32) for a bulk step, so that a bulk load does not leave half a pool unused. */
static size_t dg__grown_cap(size_t cap, size_t need) {
    size_t c = cap < 16 ? 16 : cap;
    if (need > c + c / 2) return need + need / 64;
    while (c < need) c += c / 2;
    return c;
}

/* Makes sure k more pages can be handed out without allocating. All-or-nothing. */
static dg_status dg__reserve_pages(dg_graph *g, dg__store *s, size_t k) {
    /* page numbers are int32; positions past 2^32 entries are DG_POS64's (dg__pos_width) */
    size_t have = (size_t)(s->page_cap - s->page_hw) + s->nfree, cap, maxp = DG__MAX_PAGES;
    if (have >= k) return DG_OK;
    cap = dg__grown_cap(s->page_cap, (size_t)s->page_hw - s->nfree + k);
    if (cap > maxp) {
        if ((size_t)s->page_hw - s->nfree + k > maxp)
            return dg__fail(g, DG_ERR_LIMIT, "a store would need more than %zu pages of %u entries",
                            maxp, (unsigned)g->P);
        cap = maxp;
    }
    if (!dg__grow(g, (void **)&s->pool, (size_t)s->page_cap * g->P, cap * g->P, sizeof(int32_t)) ||
        (s->wpool && !dg__grow(g, (void **)&s->wpool, (size_t)s->page_cap * g->P, cap * g->P, sizeof(float))) ||
        !dg__grow(g, (void **)&s->idx, s->page_cap, cap, sizeof(dg__pindex)) ||
        !dg__grow(g, (void **)&s->ph, s->page_cap, cap, sizeof(dg__phost)) ||
        !dg__grow(g, (void **)&s->dlist, s->page_cap, cap, sizeof(int32_t)) ||
        !dg__grow(g, (void **)&s->stale, (s->page_cap + 31) / 32, (cap + 31) / 32, sizeof(uint32_t)))
        return dg__oom(g, "page pool");
    memset(s->ph + s->page_cap, 0, (cap - s->page_cap) * sizeof(dg__phost));
    memset(s->stale + (s->page_cap + 31) / 32, 0, ((cap + 31) / 32 - (s->page_cap + 31) / 32) * sizeof(uint32_t));
    s->page_cap = (uint32_t)cap;
    return DG_OK;
}

/* Hands out a page (reserved beforehand), links it after page `after` (-1: first) and
   clears its index entry; its content is the caller's (a device batch's room: the device's
   copy; the host's is not touched, a new page's memory may not even be mapped yet). */
static int32_t dg__page_take(dg__store *s, int32_t after) {
    int32_t p;
    if (s->free_head >= 0) { p = s->free_head; s->free_head = s->ph[p].next; s->nfree--; }
    else { DG_ASSERT(s->page_hw < s->page_cap); p = (int32_t)s->page_hw++; }
    s->ph[p].fill = DG__HDR;
    s->idx[p].first = -1; s->idx[p].la_pos = -1; s->idx[p].la_len = -1; s->idx[p].la_tab = -1;
    s->ph[p].prev = after;
    s->ph[p].next = after >= 0 ? s->ph[after].next : s->head;
    if (s->ph[p].next >= 0) s->ph[s->ph[p].next].prev = p; else s->tail = p;
    if (after >= 0) s->ph[after].next = p; else s->head = p;
    s->live_pages++;
    return p;
}
/* Hands out an empty page (reserved beforehand) and links it after page `after` (-1: first). */
static int32_t dg__page_new(dg_graph *g, dg__store *s, int32_t after, int la) {
    int32_t p = dg__page_take(s, after), *pg = DG__PAGE(g, s, p);
    pg[0] = 0; pg[1] = DG__HDR; pg[2] = la;
    memset(pg + DG__HDR, 0xff, (g->P - DG__HDR) * sizeof(int32_t));   /* every free entry is -1 */
    if (s->wpool) memset(s->wpool + (size_t)p * g->P, 0, g->P * sizeof(float));
    dg__touch(s, p);
    return p;
}

/* Unlinks a page from the logical order and puts it on the free list. Only its index entry
   goes to the device: a free page's entries are read by no one (the host writes all of a page it
   takes again, dg__page_new; a device batch's room writes the pages it takes, and they come back
   whole), so the device's copy of them may differ from the host's (dg_validate_device skips
   them). A removal that frees the continuation pages of many large lists sent them whole before
   (Kronecker scale 22, 1M removals on the device: 16,355 pages, 17 MB). */
static void dg__page_unlink(dg__store *s, int32_t p) {   /* (its index entry not sent: the device wrote it) */
    if (s->ph[p].prev >= 0) s->ph[s->ph[p].prev].next = s->ph[p].next; else s->head = s->ph[p].next;
    if (s->ph[p].next >= 0) s->ph[s->ph[p].next].prev = s->ph[p].prev; else s->tail = s->ph[p].prev;
    s->idx[p].first = -1; s->idx[p].la_pos = -1; s->idx[p].la_len = -1; s->idx[p].la_tab = -1;
    s->ph[p].prev = -1;
    s->ph[p].next = s->free_head; s->free_head = p; s->nfree++;
    s->live_pages--;
}
static void dg__page_release(dg__store *s, int32_t p) {
    dg__page_unlink(s, p);
    dg__touch_idx(s, p);
}

/* ---- The LA table ---- */
static size_t dg__pow2_at_least(size_t n) { size_t c = 4; while (c < n) c *= 2; return c; }
/* LA-table entries needed for a list growing from `from` to `to` pages (from < 2: no table yet). */
static size_t dg__latab_need(const dg__store *s, int32_t p0, size_t from, size_t to) {
    size_t cap = from >= 2 ? (size_t)s->latab[s->idx[p0].la_tab] : 0;
    return to <= cap || to < 2 ? 0 : dg__pow2_at_least(to) + 1;
}
/* Makes room for `need` more LA-table entries, compacting away released segments when it pays. */
static dg_status dg__latab_reserve(dg_graph *g, dg__store *s, size_t need) {
    size_t live = s->latab_len - s->latab_garbage, cap, pos = 0;
    int32_t *t;
    uint32_t p;
    if (s->latab_cap - s->latab_len >= need) return DG_OK;
    if (live + need > 0x7fffffffu)   /* idx[].la_tab is an int32 offset (host and kernels) */
        return dg__fail(g, DG_ERR_LIMIT, "the LA table of a store would pass 2^31 - 1 entries");
    cap = s->latab_cap ? s->latab_cap : 64;
    while (cap < live + need) cap *= 2;
    if (s->latab_garbage * 2 < s->latab_len) while (cap < s->latab_len + need) cap *= 2;
    t = (int32_t *)dg__alloc(g, cap * sizeof(int32_t));
    if (!t) return dg__oom(g, "LA table");
    if (s->latab_garbage * 2 >= s->latab_len) {   /* compact: copy the live segments */
        for (p = 0; p < s->page_hw; p++) {
            if (s->idx[p].la_pos == 0 && s->idx[p].la_tab >= 0) {
                int32_t o = s->idx[p].la_tab;
                size_t n = (size_t)s->latab[o] + 1;
                memcpy(t + pos, s->latab + o, n * sizeof(int32_t));
                s->idx[p].la_tab = (int32_t)pos;
                dg__touch_idx(s, (int32_t)p);
                pos += n;
            }
        }
        s->latab_len = pos; s->latab_garbage = 0;
        s->latab_moved = 1;
    } else if (s->latab_len) {
        memcpy(t, s->latab, s->latab_len * sizeof(int32_t));
    }
    dg__free(g, s->latab);
    s->latab = t; s->latab_cap = cap;
    return DG_OK;
}
/* Page table of the large list starting at page p0 (entry 0 is p0 itself). */
static int32_t *dg__la_pages(const dg__store *s, int32_t p0) { return s->latab + s->idx[p0].la_tab + 1; }
/* Gives the list at p0 a page table holding `to` pages (space reserved beforehand). */
static void dg__la_table_fit(dg__store *s, int32_t p0, size_t from, size_t to) {
    size_t cap = from >= 2 ? (size_t)s->latab[s->idx[p0].la_tab] : 0, ncap, o;
    if (to <= cap) return;
    ncap = dg__pow2_at_least(to);
    o = s->latab_len;
    DG_ASSERT(o + ncap + 1 <= s->latab_cap);
    s->latab[o] = (int32_t)ncap;
    if (from >= 2) {
        memcpy(s->latab + o + 1, dg__la_pages(s, p0), from * sizeof(int32_t));
        s->latab_garbage += cap + 1;
    } else {
        s->latab[o + 1] = p0;
    }
    s->latab_len += ncap + 1;
    s->idx[p0].la_tab = (int32_t)o;
    dg__touch_idx(s, p0);
}
/* Records a new length for the large list at p0 in every page's index entry; touch = 0: those
   entries are not sent (a device batch writes them on the device too: dg_up_rm_shrink,
   dg_up_la_grow). */
static void dg__la_set_len(dg__store *s, int32_t p0, int32_t len, int touch) {
    int32_t j, *pages = dg__la_pages(s, p0);
    for (j = 0; j < len; j++)
        if (s->idx[pages[j]].la_len != len) {
            s->idx[pages[j]].la_len = len;
            if (touch) dg__touch_idx(s, pages[j]);
        }
}
/* Turns the large list at p0 back into an ordinary one-page list. page = 0: the device wrote
   the page and its index entry so (>>update, dg_up_rm_shrink): nothing is marked changed. */
static void dg__la_dissolve(dg_graph *g, dg__store *s, int32_t p0, int page) {
    s->latab_garbage += (size_t)s->latab[s->idx[p0].la_tab] + 1;
    s->idx[p0].la_pos = -1; s->idx[p0].la_len = -1; s->idx[p0].la_tab = -1;
    DG__PAGE(g, s, p0)[2] = 0;
    s->large_lists--; s->large_pages--;
    if (page) dg__touch(s, p0);
}

/* ---- The directory ---- */
/* Every write of the directory goes through these, so that the sync sees the block. */
static void dg__dir_mark(dg__store *s, dg_vertex v) {
    uint32_t b = (uint32_t)v / DG__DIR_BLOCK;
    DG_ASSERT(!s->dd->dev[b]);   /* read back before it is written (dg__fresh_dir_*) */
    if (!s->dd->blk[b]) { s->dd->blk[b] = 1; s->dd->list[s->dd->n++] = b; }
}
static void dg__dir_set(dg__store *s, dg_vertex v, int32_t page, int32_t off) {
    s->dir[s->ds * (size_t)v] = page; s->dir[s->ds * (size_t)v + 1] = off;
    dg__dir_mark(s, v);
}
static int dg__alive(const dg_graph *g, dg_vertex v) {
    return v >= 0 && (size_t)v < g->id_bound && g->st[0].dir[g->st[0].ds * (size_t)v] >= 0;
}
/* Ownership: see >>mirror. Directory blocks a device batch changed are read back before the
   host reads or writes an entry of them: the block of one vertex, the blocks of the lists on
   some pages (a host change to a page moves the records of its other lists), or all. Nothing
   to do unless a device batch moved lists. */
static dg_status dg__fresh_dir_all(dg_graph *g);
static dg_status dg__fresh_dir_v(dg_graph *g, dg_vertex v) {
    uint32_t b = (uint32_t)v / DG__DIR_BLOCK;
    if (!g->dd.ndev || v < 0 || b >= g->dd.cap || !g->dd.dev[b]) return DG_OK;
    return dg__fresh_blocks(g, &b, 1, 1);
}
/* The directory blocks of the lists on pages[0..n) of store si (their host copies current;
   free pages skipped): how many, and (out non-NULL) which, repeats included. */
static size_t dg__page_blocks(const dg_graph *g, int si, const int32_t *pages, size_t n, uint32_t *out) {
    const dg__store *s = &g->st[si];
    size_t i, k = 0;
    for (i = 0; i < n; i++) {
        const int32_t *pg = DG__PAGE(g, s, pages[i]);
        int32_t j;
        if (s->idx[pages[i]].first < 0) continue;
        if (s->idx[pages[i]].la_pos >= 0) {              /* a large list's page: its owner */
            if (out) out[k] = (uint32_t)s->idx[pages[i]].first / DG__DIR_BLOCK;
            k++;
            continue;
        }
        for (j = 0; j < pg[0]; j++, k++) if (out) out[k] = (uint32_t)DG__SLOT_VID(g, pg, j) / DG__DIR_BLOCK;
    }
    return k;
}
static dg_status dg__fresh_dir_pages(dg_graph *g, int si, const int32_t *pages, size_t n, int gather) {   /* (see dg__fresh_blocks) */
    uint32_t *b;
    size_t k;
    dg_status st;
    if (!g->dd.ndev || !n) return DG_OK;
    k = dg__page_blocks(g, si, pages, n, NULL);
    if (!(b = (uint32_t *)dg__alloc(g, (k ? k : 1) * sizeof *b))) return dg__oom(g, "reading the directory back");
    dg__page_blocks(g, si, pages, n, b);
    st = dg__fresh_blocks(g, b, k, gather);
    dg__free(g, b);
    return st;
}
static dg_status dg__fresh_dir_all(dg_graph *g) {
    size_t i, k = 0, nb = g->dd.cap;
    uint32_t *b;
    dg_status st;
    if (!g->dd.ndev) return DG_OK;
    if (!(b = (uint32_t *)dg__alloc(g, g->dd.ndev * sizeof *b))) return dg__oom(g, "reading the directory back");
    for (i = 0; i < nb && k < g->dd.ndev; i++) if (g->dd.dev[i]) b[k++] = (uint32_t)i;
    st = dg__fresh_blocks(g, b, k, 1);
    dg__free(g, b);
    return st;
}
static dg_status dg__fresh_all(const dg_graph *cg) {
    dg_graph *g = (dg_graph *)(size_t)cg;    /* a cache: the graph's content does not change */
    int si;
    dg_status st;
    if ((st = dg__fresh_dir_all(g)) != DG_OK) return st;
    for (si = 0; si < g->nstores; si++)
        if (g->st[si].nstale && (st = dg__fresh_stale(g, si)) != DG_OK) return st;
    return DG_OK;
}
/* The pages of v's list in store si and its directory block; to change the list (write), also
   the blocks of the other lists on its page (an ordinary list: changing it moves their
   records). */
static dg_status dg__fresh_list(const dg_graph *cg, int si, dg_vertex v, int write) {
    dg_graph *g = (dg_graph *)(size_t)cg;
    dg__store *s = &g->st[si];
    dg_status st = DG_OK;
    int32_t p;
    if (v < 0 || (size_t)v >= g->id_bound) return DG_OK;
    if ((st = dg__fresh_dir_v(g, v)) != DG_OK || (p = s->dir[s->ds * (size_t)v]) < 0) return st;
    if (s->idx[p].la_pos >= 0)   /* (the index, not the page's header: a stale page's copy may be anything) */
        return s->nstale ? dg__fresh_pages(g, si, s->latab + s->idx[p].la_tab + 1, (size_t)s->idx[p].la_len) : DG_OK;
    if (dg__is_stale(s, p) && (st = dg__fresh_pages(g, si, &p, 1)) != DG_OK) return st;
    return write ? dg__fresh_dir_pages(g, si, &p, 1, 1) : DG_OK;
}
/* Makes room in the directories for ids below n. All-or-nothing. */
static dg_status dg__reserve_vertices(dg_graph *g, size_t n) {
    size_t cap = dg__grown_cap(g->vcap, n), nb = (cap + DG__DIR_BLOCK - 1) / DG__DIR_BLOCK;
    int i;
    if (n <= g->vcap) return DG_OK;
    if (nb > g->dd.cap) {         /* the changed-block marks first: harmless if the rest fails */
        if (!dg__grow(g, (void **)&g->dd.blk, g->dd.cap, nb, 1) ||
            !dg__grow(g, (void **)&g->dd.dev, g->dd.cap, nb, 1) ||
            !dg__grow(g, (void **)&g->dd.list, g->dd.cap, nb, sizeof(uint32_t)))
            return dg__oom(g, "vertex directory");
        memset(g->dd.blk + g->dd.cap, 0, nb - g->dd.cap);
        memset(g->dd.dev + g->dd.cap, 0, nb - g->dd.cap);
        g->dd.cap = nb;
    }
    if (!dg__grow(g, (void **)&g->dir, 2 * (size_t)g->nstores * g->vcap, 2 * (size_t)g->nstores * cap, sizeof(int32_t)))
        return dg__oom(g, "vertex directory");
    for (i = 0; i < g->nstores; i++) g->st[i].dir = g->dir + 2 * i;
    g->vcap = cap;
    return DG_OK;
}

/* =========================================================================
   Reading an adjacency list
   ========================================================================= */
/* A list is one run of entries in its page, or, for a large list, one run per page. */
static int32_t dg__list_runs(const dg_graph *g, const dg__store *s, dg_vertex u) {
    int32_t p = s->dir[s->ds * (size_t)u];
    return DG__PAGE(g, s, p)[2] ? s->idx[p].la_len : 1;
}
/* Run j of u's list: absolute pool position of its first entry and its length. */
static size_t dg__list_run(const dg_graph *g, const dg__store *s, dg_vertex u, int32_t j, uint32_t *len) {
    int32_t p = s->dir[s->ds * (size_t)u], off = s->dir[s->ds * (size_t)u + 1];
    const int32_t *pg = DG__PAGE(g, s, p);
    uint32_t deg = (uint32_t)pg[off];
    if (j == 0) {
        *len = pg[2] && deg > dg__la_c0(g) ? dg__la_c0(g) : deg;
        return (size_t)p * g->P + (size_t)off + 1;
    } else {
        int32_t q = dg__la_pages(s, p)[j];
        *len = (uint32_t)DG__PAGE(g, s, q)[1] - DG__HDR;
        return (size_t)q * g->P + DG__HDR;
    }
}
static uint32_t dg__deg(const dg_graph *g, const dg__store *s, dg_vertex u) {
    return (uint32_t)DG__PAGE(g, s, s->dir[s->ds * (size_t)u])[s->dir[s->ds * (size_t)u + 1]];
}
/* Absolute pool position of entry k of u's list. O(1). */
static size_t dg__list_at(const dg_graph *g, const dg__store *s, dg_vertex u, uint32_t k) {
    int32_t p = s->dir[s->ds * (size_t)u], off = s->dir[s->ds * (size_t)u + 1];
    uint32_t c0 = dg__la_c0(g), cn = dg__la_cn(g);
    if (!DG__PAGE(g, s, p)[2] || k < c0) return (size_t)p * g->P + (size_t)off + 1 + k;
    k -= c0;
    return (size_t)dg__la_pages(s, p)[1 + k / cn] * g->P + DG__HDR + k % cn;
}
/* Position of v in u's list, or (size_t)-1. */
static size_t dg__lh_find_any(const dg_graph *g, const dg__store *s, dg_vertex u, dg_vertex v, int *indexed);
static size_t dg__find(const dg_graph *g, const dg__store *s, dg_vertex u, dg_vertex v) {
    int32_t j, runs = dg__list_runs(g, s, u);
    int indexed;
    size_t at = dg__lh_find_any(g, s, u, v, &indexed);
    if (indexed) return at;
    for (j = 0; j < runs; j++) {
        uint32_t len, i;
        size_t at = dg__list_run(g, s, u, j, &len);
        const int32_t *e = s->pool + at;
        for (i = 0; i < len; i++) if (e[i] == v) return at + i;
    }
    return (size_t)-1;
}
/* =========================================================================
   List hash index: finding an entry of a long list in O(1)   >>lhash
   A list of DG__LH_MIN entries or more that a batch touches gets a hash index: open addressing
   (linear probing) over the list's entry positions x (0..deg-1), keyed by the entry s->pool at
   x, so that a batch finds what it removes or must not add again without reading the whole
   list (manual section 5). Every routine that writes a list keeps the index right (appends
   insert, the swap of a removal moves one position) or drops it; an index that cannot get
   memory is dropped, never wrong: without one, the list is scanned. A list cut below
   DG__LH_KEEP entries loses its index, so a device batch can name the lists whose indexes it
   makes wrong without asking the host (DG_UP_LONG, >>update). dg_validate checks them.
   ========================================================================= */
#ifndef DG__LH_MIN
#define DG__LH_MIN 256            /* shorter lists are scanned: cheaper than an index */
#endif
#ifndef DG__LH_SCANS
#define DG__LH_SCANS 2            /* a long list without an index is scanned by the first batch
                                     that needs it; the second makes its index (measured: making
                                     one costs about a scan or two; 8 scans before cost more in
                                     the long run) */
#endif
#define DG__LH_KEEP (DG__LH_MIN / 2)   /* a list cut below this many entries loses its index
                                     (dg__truncate_list), so a device batch knows which lists can
                                     have one without asking the host (DG_UP_LONG) */
#define DG__LH_DENSE 128           /* a batch with deg/128 or more arcs of a list makes it no
                                     index (dg__lh_for): a scan reads entries in order, an index
                                     lookup costs misses */
#define DG__LH_EMPTY UINT64_MAX
typedef struct dg__lhash {
    uint32_t bits, n;             /* 2^bits slots, n of them used (at most 3/4) */
    size_t at;                    /* the list's place in dg__store.lhv */
    uint64_t *slot;               /* key (the entry) << 32 | position x, or DG__LH_EMPTY; the block
                                     follows the struct */
} dg__lhash;

static dg__lhash *dg__lh_of(const dg__store *s, dg_vertex u) {
    return (size_t)u < s->lh_cap ? s->lh[u] : NULL;
}
static uint32_t dg__lh_home(const dg__lhash *h, uint32_t key) {
    return (uint32_t)(key * 0x9E3779B1u) >> (32 - h->bits);
}
/* The slot holding v in index h, or -1. */
static int64_t dg__lh_slot(const dg__lhash *h, dg_vertex v) {
    uint32_t mask = (1u << h->bits) - 1, i = dg__lh_home(h, (uint32_t)v);
    for (; h->slot[i] != DG__LH_EMPTY; i = (i + 1) & mask)
        if ((uint32_t)(h->slot[i] >> 32) == (uint32_t)v)
            return (int64_t)i;
    return -1;
}
static void dg__lh_free(dg_graph *g, dg__store *s, dg_vertex u) {
    dg__lhash *h = dg__lh_of(s, u);
    if (!h) return;
    s->lh_bytes -= sizeof *h + ((size_t)1 << h->bits) * sizeof(uint64_t);
    s->lhv[h->at] = s->lhv[--s->nlh];
    s->lh[s->lhv[h->at]]->at = h->at;
    dg__free(g, h);
    s->lh[u] = NULL;
}
static void dg__lh_put(dg__lhash *h, dg_vertex v, uint32_t x) {
    uint32_t mask = (1u << h->bits) - 1, i = dg__lh_home(h, (uint32_t)v);
    while (h->slot[i] != DG__LH_EMPTY) i = (i + 1) & mask;
    h->slot[i] = (uint64_t)(uint32_t)v << 32 | x;
    h->n++;
}
static uint32_t dg__lh_bits_for(size_t n) {
    uint32_t bits = 4;
    while (bits < 31 && ((size_t)1 << bits) < 2 * n) bits++;
    return bits;
}
/* A new index for u's entries 0..deg-1 (all in the pool), room for twice as many; replaces the
   old one. 0 if memory ran out (u then has none). Reads the list run by run: O(deg). */
static int dg__lh_make(dg_graph *g, dg__store *s, dg_vertex u, uint32_t deg) {
    uint32_t bits = dg__lh_bits_for(deg), x = 0;
    size_t bytes = sizeof(dg__lhash) + ((size_t)1 << bits) * sizeof(uint64_t);
    int32_t j, runs;
    dg__lhash *h;
    dg__lh_free(g, s, u);
    if ((size_t)u >= s->lh_cap) {
        size_t cap = g->vcap;
        if (!dg__grow(g, (void **)&s->lh, s->lh_cap, cap, sizeof(dg__lhash *))) return 0;
        memset(s->lh + s->lh_cap, 0, (cap - s->lh_cap) * sizeof(dg__lhash *));
        s->lh_cap = cap;
    }
    if (s->nlh == s->lhv_cap) {
        size_t cap = dg__grown_cap(s->lhv_cap, s->nlh + 1);
        if (!dg__grow(g, (void **)&s->lhv, s->lhv_cap, cap, sizeof(dg_vertex))) return 0;
        s->lhv_cap = cap;
    }
    if (!(h = (dg__lhash *)dg__alloc(g, bytes))) return 0;
    h->bits = bits;
    h->n = 0;
    h->slot = (uint64_t *)(h + 1);
    memset(h->slot, 0xff, ((size_t)1 << bits) * sizeof(uint64_t));
    runs = dg__list_runs(g, s, u);
    for (j = 0; j < runs && x < deg; j++) {
        uint32_t len, i;
        const int32_t *e = s->pool + dg__list_run(g, s, u, j, &len);
        for (i = 0; i < len && x < deg; i++) dg__lh_put(h, e[i], x++);
    }
    s->lh[u] = h;
    s->lh_bytes += bytes;
    h->at = s->nlh;
    s->lhv[s->nlh++] = u;
    return 1;
}
/* Counts one more batch that wants u's index and finds none; returns the count (saturating;
   DG__LH_SCANS when the counters cannot get memory: the index is then made at once). */
static unsigned dg__lh_scanned(dg_graph *g, dg__store *s, dg_vertex u) {
    if ((size_t)u >= s->lh_scans_cap) {
        size_t cap = g->vcap;
        if (!dg__grow(g, (void **)&s->lh_scans, s->lh_scans_cap, cap, 1)) return DG__LH_SCANS;
        memset(s->lh_scans + s->lh_scans_cap, 0, cap - s->lh_scans_cap);
        s->lh_scans_cap = cap;
    }
    if (s->lh_scans[u] < 255) s->lh_scans[u]++;
    return s->lh_scans[u];
}
/* u's index, made now if u's list is long, has none and was scanned by DG__LH_SCANS batches
   already (a list that device batches or single-edge calls grew has none: making it reads the
   whole list, which pays only if later batches come back to it); NULL: scan the list. */
static dg__lhash *dg__lh_need(dg_graph *g, dg__store *s, dg_vertex u) {
    dg__lhash *h = dg__lh_of(s, u);
    uint32_t deg;
    if (h) return h;
    deg = dg__deg(g, s, u);
    if (deg < DG__LH_MIN || dg__lh_scanned(g, s, u) < DG__LH_SCANS || !dg__lh_make(g, s, u, deg)) return NULL;
    return s->lh[u];
}
/* The index a batch with `arcs` arcs for u's list (deg entries) looks them up in: the one u
   has, or, for a long list and few arcs, one made now (dg__lh_need); NULL: scan the list. Many
   arcs (deg / DG__LH_DENSE or more) make none: a scan reads entries in order, each lookup costs
   misses; an index u has is used even then (kept right by every write, dg__swap_last: a dense
   removal that dropped it had the next sparse batch read the whole list to make it again). */
static dg__lhash *dg__lh_for(dg_graph *g, dg__store *s, dg_vertex u, uint32_t deg, size_t arcs) {
    return arcs * DG__LH_DENSE < deg && deg >= DG__LH_MIN ? dg__lh_need(g, s, u) : dg__lh_of(s, u);
}
/* Entries x0..x1-1 of u's list were written (they are in the pool): into u's index. A list that
   reaches DG__LH_MIN entries gets one here, while its entries were just written anyway, so that
   no later batch reads the whole list to make it; one a device batch dropped is made again by
   the next sparse batch that needs it (dg__lh_need). */
static void dg__lh_appended(dg_graph *g, dg__store *s, dg_vertex u, uint32_t x0, uint32_t x1) {
    dg__lhash *h = dg__lh_of(s, u);
    uint32_t x;
    if (!h) {
        if (x0 < DG__LH_MIN && x1 >= DG__LH_MIN) dg__lh_make(g, s, u, x1);
        return;
    }
    if (4 * (size_t)x1 > 3 * ((size_t)1 << h->bits)) {   /* over 3/4 full: a larger one */
        if (!dg__lh_make(g, s, u, x1)) dg__lh_free(g, s, u);
        return;
    }
    for (x = x0; x < x1; x++) dg__lh_put(h, s->pool[dg__list_at(g, s, u, x)], x);
}
/* Before u's entry v is overwritten by its last entry (position last, value vlast): v leaves
   u's index and vlast's slot takes v's position. Backward-shift deletion keeps every probe
   sequence unbroken. */
static void dg__lh_swap_out(dg__store *s, dg_vertex u, dg_vertex v, uint32_t last, dg_vertex vlast) {
    dg__lhash *h = dg__lh_of(s, u);
    uint32_t mask, i, j, xv;
    int64_t at;
    if (!h || (at = dg__lh_slot(h, v)) < 0) return;
    mask = (1u << h->bits) - 1;
    i = (uint32_t)at;
    xv = (uint32_t)h->slot[i];
    for (j = (i + 1) & mask; h->slot[j] != DG__LH_EMPTY; j = (j + 1) & mask) {
        uint32_t home = dg__lh_home(h, (uint32_t)(h->slot[j] >> 32));
        if (((j - home) & mask) >= ((j - i) & mask)) {   /* j's entry may move back to i */
            h->slot[i] = h->slot[j];
            i = j;
        }
    }
    h->slot[i] = DG__LH_EMPTY;
    h->n--;
    if (xv != last && (at = dg__lh_slot(h, vlast)) >= 0)
        h->slot[at] = (uint64_t)(uint32_t)vlast << 32 | xv;
}
/* Pool position of v in u's list through u's index h, or (size_t)-1. */
static size_t dg__lh_find(const dg_graph *g, const dg__store *s, dg_vertex u, const dg__lhash *h, dg_vertex v) {
    int64_t at = dg__lh_slot(h, v);
    return at < 0 ? (size_t)-1 : dg__list_at(g, s, u, (uint32_t)h->slot[at]);
}
/* The same through u's index if it has one (*indexed = 1), for dg__find, which scans otherwise. */
static size_t dg__lh_find_any(const dg_graph *g, const dg__store *s, dg_vertex u, dg_vertex v, int *indexed) {
    const dg__lhash *h = dg__lh_of(s, u);
    *indexed = h != NULL;
    return h ? dg__lh_find(g, s, u, h, v) : (size_t)-1;
}

/* the in-store of a graph (the out-store itself when undirected) */
static dg__store *dg__in(dg_graph *g) { return &g->st[g->nstores - 1]; }
static const dg__store *dg__in_c(const dg_graph *g) { return &g->st[g->nstores - 1]; }
/* u->v present? searches the shorter of u's out-list and v's in-list */
static int dg__has_arc(const dg_graph *g, dg_vertex u, dg_vertex v) {
    const dg__store *o = &g->st[0], *i = dg__in_c(g);
    if (dg__deg(g, o, u) <= dg__deg(g, i, v)) return dg__find(g, o, u, v) != (size_t)-1;
    return dg__find(g, i, v, u) != (size_t)-1;
}

/* =========================================================================
   Store mutations: the page rules of manual section 5, on one store.   >>mutate
   Callers reserve pages and LA-table space first, so these cannot fail.
   ========================================================================= */
/* An arc of a batch: the entry dst (weight w) goes into the list of src. */
typedef struct dg__arc { int32_t src, dst; float w; } dg__arc;
/* Batches visit the lists of their sources in id order, each a cache and TLB miss or two
   (directory entry, then the list's page): they prefetch the directory entry (and the list
   index pointer) of the source DG__PF_DIR arcs ahead, the list (page header and head, the
   page's host record) of the source DG__PF_LIST arcs ahead, and the next DG__PF_LINES - 1
   cache lines of the list's record (a short list through the entry after it, where an arc
   goes) of the source DG__PF_REC arcs ahead, so that the misses overlap (GCC and Clang;
   nothing elsewhere). The lines are not chosen by the list's degree: that load, a miss when
   the list had not yet arrived, held the loop (a third of dg__store_batch's samples on the
   dev VM). A loop that steps over several arcs at once prefetches for each of them. */
#if defined(__GNUC__) || defined(__clang__)
#define DG__PREFETCH(p) __builtin_prefetch(p)
#else
#define DG__PREFETCH(p) ((void)0)
#endif
#define DG__PF_DIR   64
#define DG__PF_LIST  16
#define DG__PF_REC   8
#define DG__PF_LINES 4
/* (a macro, not a function: GCC finds such a function free of side effects, since a prefetch
   is none, and drops its calls) */
#define DG__PREFETCH_ARCS(g, s, a, i, m) do { \
    if ((i) + DG__PF_DIR < (m)) { \
        const size_t u_ = (size_t)(a)[(i) + DG__PF_DIR].src; \
        DG__PREFETCH(&(s)->dir[(s)->ds * u_]); \
        if (u_ < (s)->lh_cap) DG__PREFETCH(&(s)->lh[u_]); \
    } \
    if ((i) + DG__PF_LIST < (m)) { \
        const int32_t *d_ = &(s)->dir[(s)->ds * (size_t)(a)[(i) + DG__PF_LIST].src]; \
        if (d_[0] >= 0) { \
            DG__PREFETCH((s)->pool + (size_t)d_[0] * (g)->P); \
            DG__PREFETCH((s)->pool + (size_t)d_[0] * (g)->P + d_[1]); \
            DG__PREFETCH(&(s)->ph[d_[0]]); \
        } \
    } \
    if ((i) + DG__PF_REC < (m)) { \
        const int32_t *d_ = &(s)->dir[(s)->ds * (size_t)(a)[(i) + DG__PF_REC].src]; \
        if (d_[0] >= 0) { \
            const int32_t *r_ = (s)->pool + (size_t)d_[0] * (g)->P + d_[1]; \
            int x_; \
            for (x_ = 1; x_ < DG__PF_LINES; x_++) DG__PREFETCH(r_ + 16 * x_); \
        } \
    } \
} while (0)
/* A batch's arc array k (0..2) of at least n arcs, kept between batches: a fresh array a batch
   cost its page faults (~2,500 for a 100k-edge batch, ~10% of it, on the dev VM). Its contents
   are not kept. dg__bscratch_trim lets them go when they are large beside the graph. */
#define DG__FEW_ARCS 2                      /* arcs a batch looks up one by one in a short list */
static size_t dg__bscr_keep = (size_t)32 << 20;   /* bytes kept at least (or an eighth of the
                                                     pages); a test hook, 0: none kept */
static dg__arc *dg__bscratch(dg_graph *g, int k, size_t n) {
    if (g->bscr_cap[k] < n) {
        dg__free(g, g->bscr[k]);
        g->bscr[k] = (dg__arc *)dg__alloc(g, (n ? n : 1) * sizeof(dg__arc));
        g->bscr_cap[k] = g->bscr[k] ? n : 0;
    }
    return g->bscr[k];
}
static void dg__bscratch_trim(dg_graph *g) {
    size_t bytes = (g->bscr_cap[0] + g->bscr_cap[1] + g->bscr_cap[2]) * sizeof(dg__arc), pages = 0;
    int k;
    for (k = 0; k < g->nstores; k++) pages += (size_t)g->st[k].page_hw * g->P * 4;
    if (dg__bscr_keep && (bytes <= dg__bscr_keep || bytes <= pages / 8)) return;
    for (k = 0; k < 3; k++) { dg__free(g, g->bscr[k]); g->bscr[k] = NULL; g->bscr_cap[k] = 0; }
}
/* Writes the targets (and weights) of k arcs at pool position at. */
static void dg__put_arcs(dg__store *s, size_t at, const dg__arc *a, size_t k) {
    size_t i;
    for (i = 0; i < k; i++) s->pool[at + i] = a[i].dst;
    if (s->wpool) for (i = 0; i < k; i++) s->wpool[at + i] = a[i].w;
}
static void dg__clear(int32_t *e, size_t n) { memset(e, 0xff, n * sizeof(int32_t)); } /* to -1: free */

/* Slot index of vertex v in page pg: slots ascend by id, except with reuse_ids (a reused id
   joins the last page like a new one), where the page's slots are searched in turn. */
static uint32_t dg__slot_of(const dg_graph *g, const int32_t *pg, dg_vertex v) {
    uint32_t lo = 0, hi = (uint32_t)pg[0];
    if (g->desc.reuse_ids) {
        for (lo = 0; lo < hi && DG__SLOT_VID(g, pg, lo) != v; lo++) {}
        DG_ASSERT(lo < hi);
        return lo;
    }
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (DG__SLOT_VID(g, pg, mid) <= v) lo = mid; else hi = mid;
    }
    DG_ASSERT(DG__SLOT_VID(g, pg, lo) == v);
    return lo;
}
/* End of the list of slot i (one past its last neighbour). */
static int32_t dg__block_end(const dg_graph *g, const int32_t *pg, uint32_t i) {
    int32_t off = DG__SLOT_OFF(g, pg, i);
    return off + 1 + pg[off];
}

/* Moves slots i..n-1 of page p and their lists (gaps included) to the empty page q
   (cases 1 and 2 of 3.3.2). */
static void dg__move_tail(dg_graph *g, dg__store *s, int32_t p, uint32_t i, int32_t q) {
    int32_t *pg = DG__PAGE(g, s, p), *qg = DG__PAGE(g, s, q);
    uint32_t j, n = (uint32_t)pg[0], moved = 0;
    int32_t start = DG__SLOT_OFF(g, pg, i), len = pg[1] - start;
    memcpy(qg + DG__HDR, pg + start, (size_t)len * sizeof(int32_t));
    if (s->wpool)
        memcpy(s->wpool + (size_t)q * g->P + DG__HDR, s->wpool + (size_t)p * g->P + start,
               (size_t)len * sizeof(float));
    for (j = i; j < n; j++) {
        dg_vertex v = DG__SLOT_VID(g, pg, j);
        int32_t o = DG__SLOT_OFF(g, pg, j);
        moved += 1 + (uint32_t)pg[o] + 2;
        o = o - start + DG__HDR;
        DG__SLOT_OFF(g, qg, j - i) = o;
        DG__SLOT_VID(g, qg, j - i) = v;
        dg__dir_set(s, v, q, o);
    }
    qg[0] = (int32_t)(n - i); qg[1] = DG__HDR + len;
    s->ph[q].fill = DG__HDR + moved;
    s->idx[q].first = DG__SLOT_VID(g, pg, i);
    dg__clear(pg + start, (size_t)len);
    dg__clear(pg + g->P - 2 * n, 2 * (size_t)(n - i));           /* the moved slots */
    pg[0] = (int32_t)i; pg[1] = i ? dg__block_end(g, pg, i - 1) : DG__HDR;
    s->ph[p].fill -= moved;
    dg__touch(s, p); dg__touch(s, q);
}

/* Shards (g->cut): the shard of id v, and of page p (of its first vertex: a page holds one
   shard's lists, so the batches' runs and the compaction's windows stop where the shard
   changes, and a new vertex of another shard starts a page). Without shards: 0. */
static int dg__shard_of(const dg_graph *g, dg_vertex v) {
    int lo = 0, hi = g->ncut - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (v >= g->cut[mid]) lo = mid; else hi = mid - 1;
    }
    return lo;
}
static int dg__page_shard(const dg_graph *g, const dg__store *s, int32_t p) {
    return g->cut ? dg__shard_of(g, s->idx[p].first) : 0;
}

/* Appends vertex v (the largest id so far) to the store, with an empty list. */
static void dg__store_add_vertex(dg_graph *g, dg__store *s, dg_vertex v) {
    int32_t p = s->tail, *pg = p >= 0 ? DG__PAGE(g, s, p) : NULL;
    uint32_t n;
    int32_t off;
    if (!pg || pg[2] || (uint64_t)dg__end_free(g, pg) * 10 < (uint64_t)g->P * 6 ||
        (g->cut && dg__page_shard(g, s, p) != dg__shard_of(g, v))) {
        p = dg__page_new(g, s, s->tail, 0);
        pg = DG__PAGE(g, s, p);
    }
    n = (uint32_t)pg[0]; off = pg[1];
    DG__SLOT_OFF(g, pg, n) = off;
    DG__SLOT_VID(g, pg, n) = v;
    pg[off] = 0;
    pg[1]++; pg[0]++;
    s->ph[p].fill += 3;
    if (n == 0) s->idx[p].first = v;
    dg__dir_set(s, v, p, off);
    dg__touch(s, p);
}

/* Pages and LA-table entries needed to grow the list of u, alone in its page or large, by k. */
static size_t dg__la_pages_after(const dg_graph *g, size_t total) {
    size_t c0 = dg__la_c0(g), cn = dg__la_cn(g);
    return total <= c0 ? 1 : 1 + (total - c0 + cn - 1) / cn;
}
static void dg__la_needs(const dg_graph *g, const dg__store *s, dg_vertex u, size_t k,
                         size_t *pages, size_t *latab) {
    int32_t p0 = s->dir[s->ds * (size_t)u];
    const int32_t *pg = DG__PAGE(g, s, p0);
    size_t deg = dg__deg(g, s, u), L = pg[2] ? (size_t)s->idx[p0].la_len : 1;
    size_t Lf = dg__la_pages_after(g, deg + k);
    if (!pg[2] && k <= dg__free_entries(g, s, p0)) Lf = 1;
    *pages = Lf > L ? Lf - L : 0;
    *latab = dg__latab_need(s, p0, pg[2] ? L : 1, Lf);
}

/* Appends k entries to the list of u, which is alone in its page or large: fills the page,
   then continuation pages (case 3 of 3.3.2). */
static void dg__la_grow(dg_graph *g, dg__store *s, dg_vertex u, const dg__arc *a, size_t k) {
    int32_t p0 = s->dir[s->ds * (size_t)u], off = s->dir[s->ds * (size_t)u + 1], *pg0 = DG__PAGE(g, s, p0);
    int32_t last, *pages;
    size_t deg = (size_t)pg0[off], done = 0, L, Lf;
    if (!pg0[2] && off != DG__HDR) {
        /* the list is alone but not at the start (lists before it were removed): move it there
           so that all the page's free entries follow it */
        memmove(pg0 + DG__HDR, pg0 + off, (deg + 1) * sizeof(int32_t));
        if (s->wpool) {
            float *wp = s->wpool + (size_t)p0 * g->P;
            memmove(wp + DG__HDR, wp + off, (deg + 1) * sizeof(float));
        }
        dg__clear(pg0 + DG__HDR + 1 + deg, (size_t)(off - DG__HDR));
        off = DG__HDR;
        DG__SLOT_OFF(g, pg0, 0) = off;
        s->dir[s->ds * (size_t)u + 1] = off;
        dg__dir_mark(s, u);
        pg0[1] = off + 1 + (int32_t)deg;
    }
    if (!pg0[2]) {
        size_t room = dg__free_entries(g, s, p0), take = room < k ? room : k;
        dg__put_arcs(s, (size_t)p0 * g->P + pg0[1], a, take);
        pg0[1] += (int32_t)take;
        s->ph[p0].fill += (uint32_t)take;
        done = take;
        dg__touch(s, p0);
        if (done == k) {
            pg0[off] = (int32_t)(deg + k);
            dg__lh_appended(g, s, u, (uint32_t)deg, (uint32_t)(deg + k));
            return;
        }
        DG_ASSERT(pg0[0] == 1 && s->ph[p0].fill == g->P);
        pg0[2] = 1;
        s->idx[p0].la_pos = 0; s->idx[p0].la_len = 1;
        s->large_lists++; s->large_pages++;
        L = 1;
    } else {
        L = (size_t)s->idx[p0].la_len;
    }
    Lf = dg__la_pages_after(g, deg + k);
    dg__la_table_fit(s, p0, L >= 2 ? L : 1, Lf);
    pages = dg__la_pages(s, p0);
    last = pages[L - 1];
    while (done < k) {
        int32_t *lg = DG__PAGE(g, s, last);
        size_t room = last == p0 ? 0 : g->P - (size_t)lg[1], take;
        if (room == 0) {
            int32_t q = dg__page_new(g, s, last, 1);
            s->idx[q].first = u; s->idx[q].la_pos = (int32_t)L;
            pages[L++] = q; last = q;
            s->large_pages++;
            continue;
        }
        take = room < k - done ? room : k - done;
        dg__put_arcs(s, (size_t)last * g->P + lg[1], a + done, take);
        dg__touch_range(g, s, last, (uint32_t)lg[1], (uint32_t)lg[1] + (uint32_t)take);
        dg__touch_range(g, s, last, 1, 2);
        lg[1] += (int32_t)take;
        s->ph[last].fill += (uint32_t)take;
        done += take;
    }
    DG_ASSERT(L == Lf);
    dg__la_set_len(s, p0, (int32_t)L, 1);
    pg0[off] = (int32_t)(deg + k);
    dg__touch_range(g, s, p0, (uint32_t)off, (uint32_t)off + 1);
    dg__lh_appended(g, s, u, (uint32_t)deg, (uint32_t)(deg + k));
}

static void dg__repack(dg_graph *g, dg__store *s, const int32_t *run, uint32_t k, const dg__arc *a,
                       size_t na, int commit, size_t *pages, size_t *latab);
/* After a change that may have added pages (>>batch: host batches, single insertions). */
static void dg__auto_compact(dg_graph *g, const size_t *before, int whole);

/* Makes entry pos (just past u's list, in a page with free entries somewhere) free. Lists keep
   gaps of free (-1) entries after them, so the usual case costs nothing; otherwise the lists
   up to the next gap move by one entry, if that gap is among the next DG__SHIFT_MAX lists
   (or the page has fewer free entries than lists); else the page is laid out again with its
   free space spread over all its lists (O(page), and then no insertion moves anything for a
   while). */
#define DG__SHIFT_MAX 8
static int32_t dg__make_room(dg_graph *g, dg__store *s, int32_t p, dg_vertex u) {
    int32_t *pg = DG__PAGE(g, s, p), off = s->dir[s->ds * (size_t)u + 1], pos = off + 1 + pg[off];
    int32_t limit, q;
    uint32_t i, n;
    if (pg[pos] == -1) return pos;
    n = (uint32_t)pg[0];
    limit = (int32_t)(g->P - 2 * n);
    for (q = pos, i = 0; q < limit && pg[q] != -1 && i < DG__SHIFT_MAX; q += 1 + pg[q], i++) {}
    if (q < limit && pg[q] != -1 && dg__free_entries(g, s, p) < n)  /* spreading gives no gaps: */
        for (; q < limit && pg[q] != -1; q += 1 + pg[q]) {}          /* go on to the next one */
    if (q >= limit || pg[q] != -1) {        /* no gap near u: spread the free space */
        size_t dummy = 0;
        dg__repack(g, s, &p, 1, NULL, 0, 1, &dummy, &dummy);
        off = s->dir[s->ds * (size_t)u + 1]; pos = off + 1 + pg[off];
        if (pg[pos] == -1) return pos;
        for (q = pos; q < limit && pg[q] != -1; q += 1 + pg[q]) {}
        DG_ASSERT(q < limit);
    }
    memmove(pg + pos + 1, pg + pos, (size_t)(q - pos) * sizeof(int32_t));
    if (s->wpool) {
        float *wp = s->wpool + (size_t)p * g->P;
        memmove(wp + pos + 1, wp + pos, (size_t)(q - pos) * sizeof(float));
    }
    for (i = dg__slot_of(g, pg, u) + 1; i < n && DG__SLOT_OFF(g, pg, i) < q; i++) {
        DG__SLOT_OFF(g, pg, i)++;
        s->dir[s->ds * (size_t)DG__SLOT_VID(g, pg, i) + 1]++;
        dg__dir_mark(s, DG__SLOT_VID(g, pg, i));
    }
    if (q >= pg[1]) pg[1]++;
    pg[pos] = -1;
    return pos;
}

/* The page rule of one append to the list of u (manual section 5), decided in one place for
   dg__append1_needs (measure) and dg__append1 (apply). */
typedef enum { DG__APPEND_IN_PAGE, DG__APPEND_NEW_PAGE, DG__APPEND_LARGE } dg__append_rule;
static dg__append_rule dg__append1_rule(const dg_graph *g, const dg__store *s, dg_vertex u) {
    int32_t p = s->dir[s->ds * (size_t)u];
    const int32_t *pg = DG__PAGE(g, s, p);
    if (pg[2] || pg[0] == 1)
        return DG__APPEND_LARGE;         /* alone in its page or large: grows by pages */
    return dg__free_entries(g, s, p) ? DG__APPEND_IN_PAGE : DG__APPEND_NEW_PAGE;
}
/* Pages and LA-table entries dg__append1 takes. */
static void dg__append1_needs(const dg_graph *g, const dg__store *s, dg_vertex u,
                              size_t *pages, size_t *latab) {
    dg__append_rule rule = dg__append1_rule(g, s, u);
    if (rule == DG__APPEND_LARGE) {
        dg__la_needs(g, s, u, 1, pages, latab);
        return;
    }
    *pages = rule == DG__APPEND_NEW_PAGE;
    *latab = 0;
}
/* Appends one entry v (weight w) to the list of u. */
static void dg__append1(dg_graph *g, dg__store *s, dg_vertex u, dg_vertex v, float w) {
    dg__append_rule rule = dg__append1_rule(g, s, u);
    int32_t p = s->dir[s->ds * (size_t)u], *pg = DG__PAGE(g, s, p), off, pos;
    if (rule == DG__APPEND_LARGE) {
        dg__arc one;
        one.src = u; one.dst = v; one.w = w;
        dg__la_grow(g, s, u, &one, 1);
        return;
    }
    if (rule == DG__APPEND_NEW_PAGE) {
        uint32_t i = dg__slot_of(g, pg, u), n = (uint32_t)pg[0];
        int32_t q = dg__page_new(g, s, p, 0);
        if (i + 1 < n) {                 /* case 1: later lists move to a new page */
            dg__move_tail(g, s, p, i + 1, q);
        } else {                         /* case 2: the list itself moves to a new page */
            dg__move_tail(g, s, p, i, q);
            p = q; pg = DG__PAGE(g, s, p);
        }
    }
    off = s->dir[s->ds * (size_t)u + 1];
    pos = off + 1 + pg[off];
    if (pg[pos] != -1) {                 /* lists move: the whole page is sent */
        pos = dg__make_room(g, s, p, u);
        off = s->dir[s->ds * (size_t)u + 1];
        dg__touch(s, p);
    }
    pg[pos] = v;
    if (s->wpool) s->wpool[(size_t)p * g->P + pos] = w;
    pg[off]++;
    dg__lh_appended(g, s, u, (uint32_t)pg[off] - 1, (uint32_t)pg[off]);
    if (pos >= pg[1]) { pg[1] = pos + 1; dg__touch_range(g, s, p, 1, 2); }
    s->ph[p].fill++;
    dg__touch_range(g, s, p, (uint32_t)off, (uint32_t)off + 1);
    dg__touch_range(g, s, p, (uint32_t)pos, (uint32_t)pos + 1);
}

/* Shrinks the list of u to its first nd entries; the entries freed become gap (-1), and
   emptied large-list pages are released. */
static void dg__truncate_list(dg_graph *g, dg__store *s, dg_vertex u, uint32_t nd) {
    int32_t p0 = s->dir[s->ds * (size_t)u], off = s->dir[s->ds * (size_t)u + 1], *pg0 = DG__PAGE(g, s, p0);
    uint32_t deg = (uint32_t)pg0[off];
    if (nd == deg) return;
    if (nd < DG__LH_KEEP) dg__lh_free(g, s, u);
    if (!pg0[2]) {
        dg__clear(pg0 + off + 1 + nd, deg - nd);
        if (off + 1 + (int32_t)deg == pg0[1]) { pg0[1] = off + 1 + (int32_t)nd; dg__touch_range(g, s, p0, 1, 2); }
        s->ph[p0].fill -= deg - nd;
        pg0[off] = (int32_t)nd;
        dg__touch_range(g, s, p0, (uint32_t)off, (uint32_t)off + 1 + deg);
        return;
    } else {
        size_t L = (size_t)s->idx[p0].la_len, Lf = dg__la_pages_after(g, nd), j;
        int32_t *pages = dg__la_pages(s, p0);
        for (j = L; j-- > Lf;) { dg__page_release(s, pages[j]); s->large_pages--; }
        if (Lf >= 2) {
            int32_t *lg = DG__PAGE(g, s, pages[Lf - 1]);
            int32_t end = DG__HDR + (int32_t)(nd - dg__la_c0(g) - (Lf - 2) * dg__la_cn(g));
            dg__clear(lg + end, (size_t)(lg[1] - end));
            if (lg[1] > end) dg__touch_range(g, s, pages[Lf - 1], (uint32_t)end, (uint32_t)lg[1]);
            dg__touch_range(g, s, pages[Lf - 1], 1, 2);
            lg[1] = end;
            s->ph[pages[Lf - 1]].fill = (uint32_t)end;
            if (Lf != L) dg__la_set_len(s, p0, (int32_t)Lf, 1);
            pg0[off] = (int32_t)nd;
            dg__touch_range(g, s, p0, (uint32_t)off, (uint32_t)off + 1);
            return;
        } else {
            dg__clear(pg0 + off + 1 + nd, dg__la_c0(g) - nd);
            pg0[1] = off + 1 + (int32_t)nd;
            s->ph[p0].fill = DG__HDR + 1 + nd + 2;
            dg__la_dissolve(g, s, p0, 1);
        }
    }
    pg0[off] = (int32_t)nd;
    dg__touch(s, p0);
}

/* Removes the entry at pool position pos from the list of u: swap with the last, shrink. */
/* The entry at pool position pos of u's list (of deg entries so far) takes the list's last
   entry, which the caller then cuts off (dg__truncate_list): the swap of every removal, with
   u's index kept right. */
static void dg__swap_last(dg_graph *g, dg__store *s, dg_vertex u, size_t pos, uint32_t deg) {
    size_t last = dg__list_at(g, s, u, deg - 1);
    dg__lh_swap_out(s, u, s->pool[pos], deg - 1, s->pool[last]);
    s->pool[pos] = s->pool[last];
    if (s->wpool) s->wpool[pos] = s->wpool[last];
    dg__touch_at(g, s, pos);
}
static void dg__remove_at(dg_graph *g, dg__store *s, dg_vertex u, size_t pos) {
    uint32_t deg = dg__deg(g, s, u);
    dg__swap_last(g, s, u, pos, deg);
    dg__truncate_list(g, s, u, deg - 1);
}
/* Removes v from the list of u if present; returns 1 if it was. */
static int dg__remove_entry(dg_graph *g, dg__store *s, dg_vertex u, dg_vertex v) {
    size_t pos = dg__find(g, s, u, v);
    if (pos == (size_t)-1) return 0;
    dg__remove_at(g, s, u, pos);
    return 1;
}

/* Removes vertex v and its whole list from the store; releases an emptied page. */
static void dg__store_drop_vertex(dg_graph *g, dg__store *s, dg_vertex v) {
    int32_t p = s->dir[s->ds * (size_t)v], off, *pg = DG__PAGE(g, s, p), deg;
    uint32_t i, n;
    dg__lh_free(g, s, v);
    if (pg[2]) dg__truncate_list(g, s, v, 0);
    off = s->dir[s->ds * (size_t)v + 1];
    deg = pg[off];
    i = dg__slot_of(g, pg, v);
    n = (uint32_t)pg[0];
    dg__clear(pg + off, (size_t)deg + 1);
    memmove(pg + g->P - 2 * n + 2, pg + g->P - 2 * n, 2 * (size_t)(n - 1 - i) * sizeof(int32_t));
    dg__clear(pg + g->P - 2 * n, 2);
    pg[0]--;
    s->ph[p].fill -= 3 + (uint32_t)deg;
    if (off + 1 + deg == pg[1]) pg[1] = i ? dg__block_end(g, pg, i - 1) : DG__HDR;
    dg__dir_set(s, v, -1, -1);
    if (pg[0] == 0) dg__page_release(s, p);
    else if (i == 0) s->idx[p].first = DG__SLOT_VID(g, pg, 0);
    dg__touch(s, p);
}

/* =========================================================================
   Creating and destroying a graph
   ========================================================================= */
static void dg__store_free(dg_graph *g, dg__store *s) {
    size_t u;
    for (u = 0; u < s->lh_cap; u++) dg__free(g, s->lh[u]);
    dg__free(g, s->lh); dg__free(g, s->lhv); dg__free(g, s->lh_scans);
    dg__free(g, s->pool); dg__free(g, s->wpool); dg__free(g, s->idx);
    dg__free(g, s->ph);
    dg__free(g, s->latab); dg__free(g, s->dlist);
    dg__free(g, s->stale);
    dg__free(g, s->ploc); dg__free(g, s->pdev);
}

/* dg_create's failures have no graph to keep their message: they go to the desc's logger. */
static dg_status dg__create_fail(const dg_desc *d, dg_status s, const char *msg) {
    if (d->logger.func) d->logger.func(DG_LOG_ERROR, msg, d->logger.user_data);
    return s;
}

DG_API dg_status dg_create(const dg_desc *desc, dg_graph **out) {
    dg_desc d;
    dg_graph *g;
    uint32_t P, free_entries;
    int i;
    if (!out) return DG_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (desc) d = *desc; else memset(&d, 0, sizeof d);
    P = d.page_size ? d.page_size : DG_DEFAULT_PAGE_SIZE;
    if (P < 64 || P > 65536 || (P & (P - 1))) {
        char msg[128];
        snprintf(msg, sizeof msg, "dg_create: page_size %lu is not a power of two in 64..65536", (unsigned long)d.page_size);
        return dg__create_fail(&d, DG_ERR_INVALID_ARGUMENT, msg);
    }
    if (!d.allocator.alloc_fn != !d.allocator.free_fn)
        return dg__create_fail(&d, DG_ERR_INVALID_ARGUMENT, "dg_create: allocator needs both alloc_fn and free_fn (or neither)");
    if (!d.context != !d.queue)
        return dg__create_fail(&d, DG_ERR_INVALID_ARGUMENT, "dg_create: context and queue go together (both or neither)");
    d.page_size = P;
    d.undirected = d.undirected != 0;
    d.weighted = d.weighted != 0;
    if (!d.cache_io.read != !d.cache_io.write)
        return dg__create_fail(&d, DG_ERR_INVALID_ARGUMENT, "dg_create: cache_io needs both read and write (or neither)");
    if (d.device_batches < -1 || d.device_batches > 1)
        return dg__create_fail(&d, DG_ERR_INVALID_ARGUMENT, "dg_create: device_batches must be -1, 0 or 1");
    if (d.reuse_ids != 0 && d.reuse_ids != 1)
        return dg__create_fail(&d, DG_ERR_INVALID_ARGUMENT, "dg_create: reuse_ids must be 0 or 1");
    if (d.devices < 0 || d.devices > DG_MAX_DEVICES)
        return dg__create_fail(&d, DG_ERR_INVALID_ARGUMENT, "dg_create: devices must be 0 .. DG_MAX_DEVICES (64)");
    if (d.devices > 1 && (d.context || d.reuse_ids))
        return dg__create_fail(&d, DG_ERR_INVALID_ARGUMENT, "dg_create: several devices go without context and reuse_ids");
    g = (dg_graph *)dg__alloc_with(&d.allocator, sizeof *g);
    if (!g) return dg__create_fail(&d, DG_ERR_OUT_OF_MEMORY, "dg_create: out of host memory (graph)");
    memset(g, 0, sizeof *g);
    g->desc = d;
    g->P = P;
    for (g->seg_shift = 4; (P >> g->seg_shift) > 64; g->seg_shift++) {}
    g->nstores = d.undirected ? 1 : 2;
    for (i = 0; i < 2; i++) {
        g->st[i].free_head = -1; g->st[i].head = -1; g->st[i].tail = -1; g->st[i].compact_next = -1;
        g->st[i].ds = 2 * (uint32_t)g->nstores;
        g->st[i].dd = &g->dd;
    }
    g->run_max = P >= DG__RUN_ENTRIES / 4 ? 4 : DG__RUN_ENTRIES / P;
    g->tmp = (int32_t *)dg__alloc(g, (size_t)g->run_max * P * sizeof(int32_t));
    g->wtmp = (float *)dg__alloc(g, (size_t)(d.weighted ? g->run_max * P : 1) * sizeof(float));
    g->items = (dg__item *)dg__alloc(g, (size_t)g->run_max * (P / 3 + 1) * sizeof(dg__item));
    g->runs = (int32_t *)dg__alloc(g, g->run_max * sizeof(int32_t));
    if (d.weighted) g->st[0].wpool = (float *)dg__alloc(g, sizeof(float)); /* grown with the pool */
    if (!g->tmp || !g->wtmp || !g->items || !g->runs || (d.weighted && !g->st[0].wpool)) {
        dg_destroy(g);
        return dg__create_fail(&d, DG_ERR_OUT_OF_MEMORY, "dg_create: out of host memory (scratch)");
    }
    /* how many empty vertices a fresh page takes under the 60% rule */
    for (free_entries = P - DG__HDR; (uint64_t)free_entries * 10 >= (uint64_t)P * 6; free_entries -= 3)
        g->vert_per_page++;
    *out = g;
    return DG_OK;
}

DG_API void dg_destroy(dg_graph *g) {
    dg_allocator a;
    int i;
    if (!g) return;
    dg__results_detach(g);
    dg__dev_free(g);
    dg__reach_free(g);
    dg__free(g, g->clog.e);
    dg__free(g, g->clog.seen);
    for (i = 0; i < 2; i++) dg__store_free(g, &g->st[i]);
    dg__free(g, g->dd.blk); dg__free(g, g->dd.dev); dg__free(g, g->dd.list);
    dg__shard_set(g, NULL, 0);                   /* (the shards) */
    dg__free(g, g->tmp); dg__free(g, g->wtmp); dg__free(g, g->mark); dg__free(g, g->items);
    dg__free(g, g->bscr[0]); dg__free(g, g->bscr[1]); dg__free(g, g->bscr[2]);
    dg__free(g, g->free_ids);
    dg__free(g, g->dir); dg__free(g, g->runs);
    a = g->desc.allocator;
    dg__free_with(&a, g);
}

DG_API dg_desc dg_query_desc(const dg_graph *g) {
    dg_desc d;
    if (g) return g->desc;
    memset(&d, 0, sizeof d);
    return d;
}

/* =========================================================================
   Vertices
   ========================================================================= */
/* New vertices go to the last page of each store: read back where stale. */
static dg_status dg__fresh_tails(dg_graph *g) {
    dg_status st = DG_OK;
    int i;
    for (i = 0; i < g->nstores && st == DG_OK; i++)
        if (g->st[i].tail >= 0) st = dg__fresh_pages(g, i, &g->st[i].tail, 1);
    return st;
}
DG_API dg_status dg_add_vertices(dg_graph *g, size_t count, dg_vertex *out_first) {
    size_t v, need;
    int i;
    dg_status st;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if (count > (size_t)DG__MAX_IDS - g->id_bound)
        return dg__fail(g, DG_ERR_LIMIT, "adding %zu vertices would pass the limit of %u ids",
                        count, (unsigned)DG__MAX_IDS);
    need = count / g->vert_per_page + 2;
    if (g->cut && count)                 /* (a new page at each shard's start: dg__store_add_vertex) */
        need += (size_t)(dg__shard_of(g, (dg_vertex)(g->id_bound + count - 1)) - dg__shard_of(g, (dg_vertex)g->id_bound)) + 1;
    if ((st = dg__fresh_tails(g)) != DG_OK) return st;
    if ((st = dg__fresh_dir_v(g, (dg_vertex)g->id_bound)) != DG_OK) return st;   /* (a block of older ids too) */
    if ((st = dg__reserve_vertices(g, g->id_bound + count)) != DG_OK) return st;
    for (i = 0; i < g->nstores; i++)
        if ((st = dg__reserve_pages(g, &g->st[i], need)) != DG_OK) return st;
    if (out_first) *out_first = (dg_vertex)g->id_bound;
    g->ver_ins++;
    for (v = g->id_bound; v < g->id_bound + count; v++)
        for (i = 0; i < g->nstores; i++) dg__store_add_vertex(g, &g->st[i], (dg_vertex)v);
    g->id_bound += count;
    g->nverts += count;
    return DG_OK;
}

DG_API dg_status dg_add_vertex(dg_graph *g, dg_vertex *out_id) {
    dg_status st;
    dg_vertex v;
    int i;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if (!g->nfree_ids) return dg_add_vertices(g, 1, out_id);
    if ((st = dg__fresh_tails(g)) != DG_OK) return st;
    if ((st = dg__fresh_dir_v(g, g->free_ids[g->nfree_ids - 1])) != DG_OK) return st;
    for (i = 0; i < g->nstores; i++)              /* reuse_ids: the last removed id */
        if ((st = dg__reserve_pages(g, &g->st[i], 2)) != DG_OK) return st;
    v = g->free_ids[--g->nfree_ids];
    g->ver_ins++;
    for (i = 0; i < g->nstores; i++) dg__store_add_vertex(g, &g->st[i], v);
    g->nverts++;
    if (out_id) *out_id = v;
    return DG_OK;
}

/* Checks that v names a live vertex; names the argument in the message. */
static dg_status dg__check_vertex(dg_graph *g, dg_vertex v, const char *what) {
    if (v < 0) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: negative vertex id %d", what, (int)v);
    if (!dg__alive(g, v))
        return dg__fail(g, DG_ERR_NOT_FOUND, "%s: vertex %d does not exist%s", what, (int)v,
                        (size_t)v < g->id_bound ? " (removed)" : "");
    return DG_OK;
}

/* Undoes vertex creation down to old_bound (vertices without edges, for the loaders). */
static void dg__truncate_vertices(dg_graph *g, size_t old_bound) {
    int i;
    while (g->id_bound > old_bound) {
        dg_vertex v = (dg_vertex)--g->id_bound;
        if (g->st[0].dir[g->st[0].ds * (size_t)v] < 0) continue;
        for (i = 0; i < g->nstores; i++) dg__store_drop_vertex(g, &g->st[i], v);
        g->nverts--;
    }
}

/* For each w != v in v's list in store ls, removes v from w's list in store os. When both are
   the same store, neighbours' lists change while v's is read: a large list has pages of its own
   and stays put; an ordinary one (shorter than a page) may move, so it is copied first. */
static void dg__forget(dg_graph *g, const dg__store *ls, dg_vertex v, dg__store *os) {
    int32_t j, runs = dg__list_runs(g, ls, v);
    for (j = 0; j < runs; j++) {
        uint32_t len, k;
        const int32_t *e = ls->pool + dg__list_run(g, ls, v, j, &len);
        if (ls == os && runs == 1) { memcpy(g->tmp, e, len * sizeof(int32_t)); e = g->tmp; }
        for (k = 0; k < len; k++)
            if (e[k] != v) dg__remove_entry(g, os, e[k], v);
    }
}

/* ---- the change log (see dg__clog; read by >>result) ---- */
/* Drops every entry and counts one unseen change: every result runs from nothing next. */
static void dg__clog_lose(dg_graph *g) {
    g->clog.base += g->clog.n + 1;
    g->clog.n = 0;
    g->clog.lost = g->clog.base;
}
/* Appends a change, while a result lives; past the cap (or out of memory) all are dropped. */
static void dg__clog_add(dg_graph *g, int kind, dg_vertex u, dg_vertex v, float w) {
    dg__clog *c = &g->clog;
    if (!c->results) return;
    if (c->n == c->cap) {
        size_t max = g->id_bound / 2 > DG__CLOG_MIN ? g->id_bound / 2 : DG__CLOG_MIN;
        size_t cap = c->cap ? c->cap * 2 : 1024;
        if (cap > max) cap = max;
        if (cap > c->cap && dg__grow(g, (void **)&c->e, c->cap, cap, sizeof *c->e)) c->cap = cap;
        else dg__clog_lose(g);
        if (c->n == c->cap) return;
    }
    c->e[c->n].kind = kind; c->e[c->n].u = u; c->e[c->n].v = v; c->e[c->n].w = w;
    c->n++;
}
static void dg__clog_edges(dg_graph *g, int kind, const dg_edge *e, size_t n) {
    size_t i;
    for (i = 0; g->clog.results && i < n; i++) dg__clog_add(g, kind, e[i].src, e[i].dst, e[i].weight);
}

DG_API dg_status dg_remove_vertex(dg_graph *g, dg_vertex v) {
    dg__store *out, *in;
    dg_status st;
    size_t self, deg_out, deg_in;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__check_vertex(g, v, "dg_remove_vertex")) != DG_OK) return st;
    if ((st = dg__fresh_all(g)) != DG_OK) return st;
    if (g->desc.reuse_ids && g->nfree_ids == g->free_ids_cap) {   /* room to remember v first */
        size_t cap = g->free_ids_cap ? g->free_ids_cap * 2 : 64;
        if (!dg__grow(g, (void **)&g->free_ids, g->free_ids_cap, cap, sizeof(dg_vertex)))
            return dg__oom(g, "dg_remove_vertex: the list of free ids");
        g->free_ids_cap = cap;
    }
    if (g->desc.reuse_ids) g->free_ids[g->nfree_ids++] = v;
    g->ver_del++;
    out = &g->st[0]; in = dg__in(g);
    if (g->clog.results) {           /* v, and the out-neighbours that lose an in-arc */
        uint32_t k, deg = dg__deg(g, out, v);
        dg__clog_add(g, DG__CH_REMOVE, v, v, 0.0f);
        for (k = 0; k < deg; k++) dg__clog_add(g, DG__CH_DELETE, v, out->pool[dg__list_at(g, out, v, k)], 0.0f);
    }
    self = dg__find(g, out, v, v) != (size_t)-1;
    deg_out = dg__deg(g, out, v);
    deg_in = dg__deg(g, in, v);
    /* every other end of v's edges forgets v: O(sum of those lists), no scan of the graph */
    dg__forget(g, out, v, in);
    if (g->nstores == 2) {
        dg__forget(g, in, v, out);
        g->nedges -= deg_out + deg_in - self;
        g->narcs -= deg_out + deg_in - self;
        dg__store_drop_vertex(g, in, v);
    } else {
        g->nedges -= deg_out;
        g->narcs -= 2 * deg_out - self;
    }
    dg__store_drop_vertex(g, out, v);
    g->nverts--;
    return DG_OK;
}

/* =========================================================================
   Single edges
   ========================================================================= */
static dg_status dg__check_edge(dg_graph *g, dg_vertex u, dg_vertex v, const char *what) {
    dg_status st;
    if ((st = dg__check_vertex(g, u, what)) != DG_OK) return st;
    return dg__check_vertex(g, v, what);
}
/* Reads back (where stale) the lists an edge u->v lives in: u's out-list, v's in-list. */
static dg_status dg__fresh_edge(const dg_graph *g, dg_vertex u, dg_vertex v, int write) {
    dg_status st = dg__fresh_list(g, 0, u, write);
    return st == DG_OK ? dg__fresh_list(g, g->nstores - 1, v, write) : st;
}

/* Reserves what appending to the lists of a (in store sa) and b (in sb) needs; b < 0: none. */
static dg_status dg__reserve_append2(dg_graph *g, dg__store *sa, dg_vertex a, dg__store *sb, dg_vertex b) {
    size_t pa = 0, la = 0, pb = 0, lb = 0;
    dg_status st;
    dg__append1_needs(g, sa, a, &pa, &la);
    if (b >= 0) {
        dg__append1_needs(g, sb, b, &pb, &lb);
        /* both in one store: each need is measured on the store as it is now, before either
           append, so the second is an upper bound only if the first cannot take the free entry
           it counted on. The first takes at most one entry of a page and moves lists to at most
           one new page, which can cost the second at most one page more than measured. */
        if (sb == sa) {
            pa += pb + 1;
            la += lb;
            pb = lb = 0;
        }
    }
    if ((st = dg__reserve_pages(g, sa, pa)) != DG_OK) return st;
    if ((st = dg__latab_reserve(g, sa, la)) != DG_OK) return st;
    if (b >= 0 && sb != sa) {
        if ((st = dg__reserve_pages(g, sb, pb)) != DG_OK) return st;
        if ((st = dg__latab_reserve(g, sb, lb)) != DG_OK) return st;
    }
    return DG_OK;
}

DG_API dg_status dg_add_edge(dg_graph *g, dg_vertex u, dg_vertex v, float weight) {
    dg_status st;
    size_t live[2];
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__check_edge(g, u, v, "dg_add_edge")) != DG_OK) return st;
    if ((st = dg__fresh_edge(g, u, v, 1)) != DG_OK) return st;
    live[0] = g->st[0].live_pages; live[1] = g->st[1].live_pages;
    if (weight != weight) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_add_edge: NaN weight on %d->%d", (int)u, (int)v);
    if (dg__has_arc(g, u, v))
        return dg__fail(g, DG_ERR_EXISTS, "dg_add_edge: edge %d->%d already exists", (int)u, (int)v);
    if ((st = dg__reserve_append2(g, &g->st[0], u, g->nstores == 2 ? &g->st[1] : &g->st[0],
                                  g->nstores == 2 || u != v ? v : -1)) != DG_OK)
        return st;
    /* nothing can fail from here: the state changes only now */
    if (weight < g->wmin) g->wmin = weight;
    if (!g->desc.weighted) weight = 1.0f;
    g->ver_ins++;
    dg__clog_add(g, DG__CH_INSERT, u, v, weight);
    if (g->nstores == 2) {
        dg__append1(g, &g->st[0], u, v, weight);
        dg__append1(g, &g->st[1], v, u, weight);
        g->narcs++;
    } else {
        dg__append1(g, &g->st[0], u, v, weight);
        if (u != v) dg__append1(g, &g->st[0], v, u, weight);
        g->narcs += u != v ? 2 : 1;
    }
    g->nedges++;
    dg__auto_compact(g, live, 0);
    return DG_OK;
}

DG_API dg_status dg_remove_edge(dg_graph *g, dg_vertex u, dg_vertex v) {
    dg_status st;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__check_edge(g, u, v, "dg_remove_edge")) != DG_OK) return st;
    if ((st = dg__fresh_edge(g, u, v, 1)) != DG_OK) return st;
    if (!dg__remove_entry(g, &g->st[0], u, v))
        return dg__fail(g, DG_ERR_NOT_FOUND, "dg_remove_edge: no edge %d->%d", (int)u, (int)v);
    g->ver_del++;
    dg__clog_add(g, DG__CH_DELETE, u, v, 0.0f);
    if (g->nstores == 2 || u != v) dg__remove_entry(g, dg__in(g), v, u);
    g->narcs -= g->nstores == 1 && u != v ? 2 : 1;
    g->nedges--;
    return DG_OK;
}

DG_API dg_status dg_edit_edge(dg_graph *g, dg_vertex u, dg_vertex old_v, dg_vertex new_v) {
    dg__store *out, *in;
    dg_status st;
    size_t pos;
    float w;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__check_edge(g, u, old_v, "dg_edit_edge")) != DG_OK) return st;
    if ((st = dg__check_vertex(g, new_v, "dg_edit_edge")) != DG_OK) return st;
    if ((st = dg__fresh_all(g)) != DG_OK) return st;
    out = &g->st[0]; in = dg__in(g);
    pos = dg__find(g, out, u, old_v);
    if (pos == (size_t)-1)
        return dg__fail(g, DG_ERR_NOT_FOUND, "dg_edit_edge: no edge %d->%d", (int)u, (int)old_v);
    if (old_v == new_v) return DG_OK;
    if (dg__has_arc(g, u, new_v))
        return dg__fail(g, DG_ERR_EXISTS, "dg_edit_edge: edge %d->%d already exists", (int)u, (int)new_v);
    g->ver_ins++; g->ver_del++;
    /* the reverse entry u in new_v's list is the only growth */
    if (g->nstores == 2 || new_v != u)
        if ((st = dg__reserve_append2(g, in, new_v, in, -1)) != DG_OK) return st;
    w = out->wpool ? out->wpool[pos] : 1.0f;
    dg__clog_add(g, DG__CH_DELETE, u, old_v, 0.0f);
    dg__clog_add(g, DG__CH_INSERT, u, new_v, w);
    dg__lh_free(g, out, u);                      /* its index would need the old key moved */
    out->pool[pos] = new_v;                      /* the edge is edited in place */
    dg__touch_at(g, out, pos);
    if (g->nstores == 2 || old_v != u) dg__remove_entry(g, in, old_v, u);
    if (g->nstores == 2 || new_v != u) dg__append1(g, in, new_v, u, w);
    if (g->nstores == 1) g->narcs += (size_t)(old_v == u) - (size_t)(new_v == u);
    return DG_OK;
}

DG_API dg_status dg_set_weight(dg_graph *g, dg_vertex u, dg_vertex v, float weight) {
    dg_status st;
    size_t pos;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__check_edge(g, u, v, "dg_set_weight")) != DG_OK) return st;
    if ((st = dg__fresh_edge(g, u, v, 0)) != DG_OK) return st;
    if (weight != weight) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_set_weight: NaN weight on %d->%d", (int)u, (int)v);
    pos = dg__find(g, &g->st[0], u, v);
    if (pos == (size_t)-1) return dg__fail(g, DG_ERR_NOT_FOUND, "dg_set_weight: no edge %d->%d", (int)u, (int)v);
    if (weight < g->wmin) g->wmin = weight;
    if (!g->st[0].wpool) return DG_OK;           /* unweighted: every weight is 1 */
    if (g->st[0].wpool[pos] != weight) dg__clog_add(g, DG__CH_WEIGHT, u, v, weight);
    g->st[0].wpool[pos] = weight;
    dg__touch_at(g, &g->st[0], pos);
    if (g->nstores == 1 && u != v) {
        pos = dg__find(g, &g->st[0], v, u);
        g->st[0].wpool[pos] = weight;
        dg__touch_at(g, &g->st[0], pos);
    }
    return DG_OK;
}

/* =========================================================================
   Host-side queries
   ========================================================================= */
DG_API size_t dg_vertex_count(const dg_graph *g) { return g ? g->nverts : 0; }
DG_API size_t dg_vertex_id_bound(const dg_graph *g) { return g ? g->id_bound : 0; }
DG_API size_t dg_edge_count(const dg_graph *g) { return g ? g->nedges : 0; }
DG_API int dg_has_vertex(const dg_graph *g, dg_vertex v) { return g && dg__alive(g, v); }
DG_API int dg_has_edge(const dg_graph *g, dg_vertex u, dg_vertex v) {
    return g && dg__alive(g, u) && dg__alive(g, v) && dg__fresh_edge(g, u, v, 0) == DG_OK && dg__has_arc(g, u, v);
}
/* A failed query sets its own message: the graph is const to the caller, but its error text
   is not part of its content (queries that fail write it; see THREAD SAFETY). */
static dg_status dg__query_fail(const dg_graph *g, dg_status s, const char *fn, const char *what, dg_vertex v) {
    return dg__fail((dg_graph *)(uintptr_t)g, s, "%s: %s %d", fn, what, (int)v);
}
/* v names a live vertex, and out (the result pointer) is not NULL. */
static dg_status dg__query_vertex(const dg_graph *g, dg_vertex v, const void *out, const char *fn) {
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if (v < 0) return dg__query_fail(g, DG_ERR_INVALID_ARGUMENT, fn, "negative vertex id", v);
    if (!dg__alive(g, v)) return dg__query_fail(g, DG_ERR_NOT_FOUND, fn, "no vertex", v);
    if (!out) return dg__fail((dg_graph *)(uintptr_t)g, DG_ERR_INVALID_ARGUMENT, "%s: NULL result pointer", fn);
    return DG_OK;
}
/* dg__query_vertex, and v's list in store si read back where stale. */
static dg_status dg__query_list(const dg_graph *g, int si, dg_vertex v, const void *out, const char *fn) {
    dg_status st = dg__query_vertex(g, v, out, fn);
    return st == DG_OK ? dg__fresh_list(g, si, v, 0) : st;
}
DG_API dg_status dg_degree(const dg_graph *g, dg_vertex v, size_t *out_degree) {
    dg_status st = dg__query_list(g, 0, v, out_degree, "dg_degree");
    if (st == DG_OK) *out_degree = dg__deg(g, &g->st[0], v);
    return st;
}
DG_API dg_status dg_in_degree(const dg_graph *g, dg_vertex v, size_t *out_degree) {
    dg_status st = dg__query_list(g, g ? g->nstores - 1 : 0, v, out_degree, "dg_in_degree");
    if (st == DG_OK) *out_degree = dg__deg(g, dg__in_c(g), v);
    return st;
}
DG_API dg_status dg_edge_weight(const dg_graph *g, dg_vertex u, dg_vertex v, float *out_weight) {
    dg_status st = dg__query_list(g, 0, u, out_weight, "dg_edge_weight");
    size_t pos;
    if (st == DG_OK) st = dg__query_vertex(g, v, out_weight, "dg_edge_weight");
    if (st != DG_OK) return st;
    pos = dg__find(g, &g->st[0], u, v);
    if (pos == (size_t)-1)
        return dg__fail((dg_graph *)(uintptr_t)g, DG_ERR_NOT_FOUND, "dg_edge_weight: no edge %d -> %d", (int)u, (int)v);
    *out_weight = g->st[0].wpool ? g->st[0].wpool[pos] : 1.0f;
    return DG_OK;
}
static dg_status dg__copy_list(const dg_graph *g, const dg__store *s, dg_vertex v, dg_vertex *out,
                               float *weights, size_t capacity, size_t *out_count) {
    dg_status st = dg__query_list(g, (int)(s - g->st), v, out_count, s == &g->st[0] ? "dg_neighbors" : "dg_in_neighbors");
    int32_t j, runs;
    size_t done = 0;
    if (st != DG_OK) return st;
    *out_count = dg__deg(g, s, v);
    runs = dg__list_runs(g, s, v);
    for (j = 0; j < runs && done < capacity; j++) {
        uint32_t len;
        size_t at = dg__list_run(g, s, v, j, &len), i, n = len;
        if (n > capacity - done) n = capacity - done;
        if (out) memcpy(out + done, s->pool + at, n * sizeof(dg_vertex));
        if (weights) {
            if (s->wpool) memcpy(weights + done, s->wpool + at, n * sizeof(float));
            else for (i = 0; i < n; i++) weights[done + i] = 1.0f;
        }
        done += n;
    }
    return DG_OK;
}
DG_API dg_status dg_neighbors(const dg_graph *g, dg_vertex v, dg_vertex *out, float *weights,
                              size_t capacity, size_t *out_count) {
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    return dg__copy_list(g, &g->st[0], v, out, weights, capacity, out_count);
}
DG_API dg_status dg_in_neighbors(const dg_graph *g, dg_vertex v, dg_vertex *out,
                                 size_t capacity, size_t *out_count) {
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    return dg__copy_list(g, dg__in_c(g), v, out, NULL, capacity, out_count);
}

/* =========================================================================
   Batches: group by source with a radix (counting) sort, rewrite each touched page once   >>batch
   ========================================================================= */
/* The key that orders a batch's arcs for store s: the source id, where ids ascend through the
   pages (then the order of the ids is the order of the lists); with reuse_ids, where a reused
   id sits out of order, the position of the source's list in the pool (page, record offset),
   which orders a page's lists as its slots are (a removed source gets 0: the batch fails on it
   anyway). dg__store_batch and dg__repack need that order; grouping by source is the same. */
static size_t dg__arc_key(const dg_graph *g, const dg__store *s, dg_vertex v) {
    int32_t p;
    if (!g->desc.reuse_ids) return (size_t)v;
    p = s->dir[s->ds * (size_t)v];
    return p < 0 ? 0 : (size_t)p * g->P + (size_t)s->dir[s->ds * (size_t)v + 1];
}
/* Stable LSD radix sort of n arcs by dg__arc_key, digits of up to 11 bits, as many passes as
   the key's range needs (2 for a million vertices); the histograms of all passes come from
   one read. Sorts between a and tmp; returns the sorted one. */
static dg__arc *dg__sort_arcs(const dg_graph *g, const dg__store *s, dg__arc *a, dg__arc *tmp, size_t n) {
    size_t cnt[3][2048], i, d, bound = g->desc.reuse_ids ? (size_t)s->page_hw * g->P : g->id_bound;
    unsigned bits = 1, passes, digit, pass;
    size_t mask;
    while (bits < 31 && ((size_t)1 << bits) < bound) bits++;
    passes = (bits + 10) / 11;
    digit = (bits + passes - 1) / passes;
    mask = ((size_t)1 << digit) - 1;
    if (n < 2) return a;
    memset(cnt, 0, sizeof cnt);
    for (i = 0; i < n; i++) {
        size_t k = dg__arc_key(g, s, a[i].src);
        for (pass = 0; pass < passes; pass++) cnt[pass][(k >> (pass * digit)) & mask]++;
    }
    for (pass = 0; pass < passes; pass++) {
        unsigned shift = pass * digit;
        size_t sum = 0, *c = cnt[pass];
        dg__arc *t;
        for (d = 0; d <= mask; d++) { size_t x = c[d]; c[d] = sum; sum += x; }
        for (i = 0; i < n; i++) tmp[c[(dg__arc_key(g, s, a[i].src) >> shift) & mask]++] = a[i];
        t = a; a = tmp; tmp = t;
    }
    return a;
}

/* Per-vertex mark bits for deduplication, kept between calls (1 bit a vertex); every user
   clears the bits it set, so they are all 0 between calls. */
static dg_status dg__marks(dg_graph *g) {
    size_t words = (g->id_bound + 63) / 64;
    if (g->mark_cap < words) {
        size_t cap = (g->vcap + 63) / 64;
        if (!dg__grow(g, (void **)&g->mark, g->mark_cap, cap, sizeof(uint64_t))) return dg__oom(g, "batch marks");
        memset(g->mark + g->mark_cap, 0, (cap - g->mark_cap) * sizeof(uint64_t));
        g->mark_cap = cap;
    }
    return DG_OK;
}
#define DG__MARKED(g, v) (((g)->mark[(uint32_t)(v) >> 6] >> ((v) & 63)) & 1)
#define DG__MARK(g, v) ((g)->mark[(uint32_t)(v) >> 6] |= (uint64_t)1 << ((v) & 63))
#define DG__UNMARK(g, v) ((g)->mark[(uint32_t)(v) >> 6] &= ~((uint64_t)1 << ((v) & 63)))
/* Marks (on = 1) or unmarks every entry of u's list. */
static void dg__mark_list(dg_graph *g, const dg__store *s, dg_vertex u, int32_t *pos_or_null, int on) {
    int32_t j, runs = dg__list_runs(g, s, u);
    for (j = 0; j < runs; j++) {
        uint32_t len, i;
        const int32_t *e = s->pool + dg__list_run(g, s, u, j, &len);
        for (i = 0; i < len; i++) {
            if (on) DG__MARK(g, e[i]); else DG__UNMARK(g, e[i]);
            if (pos_or_null) pos_or_null[e[i]] = -1;
        }
    }
}

/* The entries of a list being rewritten: its old entries (from a copy of its page), then new arcs. */
typedef struct dg__src { const int32_t *old; const float *wold; size_t nold; const dg__arc *a; size_t pos; } dg__src;
static void dg__src_take(dg__store *s, size_t at, dg__src *q, size_t k) {
    while (k) {
        size_t t;
        if (q->pos < q->nold) {
            t = q->nold - q->pos < k ? q->nold - q->pos : k;
            memcpy(s->pool + at, q->old + q->pos, t * sizeof(int32_t));
            if (s->wpool) memcpy(s->wpool + at, q->wold + q->pos, t * sizeof(float));
        } else {
            t = k;
            dg__put_arcs(s, at, q->a + (q->pos - q->nold), t);
        }
        q->pos += t; at += t; k -= t;
    }
}

static uint32_t dg__item_rec(const dg__item *it) { return 1 + it->deg + it->k; }

/* Writes lists it[0..cnt) on page pg_no, spreading the page's free entries as equal gaps after
   the lists (room for single insertions without moving anything). With old = NULL, only the
   room: headers, slots, degrees and the directory; the entries stay free (-1) for the device
   to write (>>update). */
static void dg__write_page(dg_graph *g, dg__store *s, int32_t pg_no, const dg__item *it, uint32_t cnt,
                           const int32_t *old, const float *wold, const dg__arc *a) {
    int32_t *pg = DG__PAGE(g, s, pg_no);
    uint32_t j, used = DG__HDR, gap, off = DG__HDR;
    uint64_t send = ~(uint64_t)0;     /* room: the segments the device does not write */
    for (j = 0; j < cnt; j++) used += dg__item_rec(&it[j]) + 2;
    gap = (g->P - used) / cnt;
    dg__clear(pg + DG__HDR, g->P - DG__HDR);
    for (j = 0; j < cnt; j++) {
        DG__SLOT_OFF(g, pg, j) = (int32_t)off; DG__SLOT_VID(g, pg, j) = it[j].v;
        pg[off] = (int32_t)(it[j].deg + it[j].k);
        dg__dir_set(s, it[j].v, pg_no, (int32_t)off);
        if (old) {
            dg__src src;
            src.old = old + it[j].off + 1; src.wold = wold ? wold + it[j].off + 1 : NULL;
            src.nold = it[j].deg; src.a = a ? a + it[j].ai : NULL; src.pos = 0;   /* no offset on NULL (UBSan) */
            dg__src_take(s, (size_t)pg_no * g->P + off + 1, &src, (size_t)it[j].deg + it[j].k);
            dg__lh_appended(g, s, it[j].v, it[j].deg, it[j].deg + it[j].k);
        } else {                             /* room only: the device writes the entries */
            send &= dg__segs_outside(g, off + 1, off + 1 + it[j].deg + it[j].k);
            dg__lh_free(g, s, it[j].v);
        }
        off += dg__item_rec(&it[j]);
        if (j + 1 < cnt) off += gap;
    }
    pg[0] = (int32_t)cnt; pg[1] = (int32_t)off; pg[2] = 0;
    s->ph[pg_no].fill = used;
    s->idx[pg_no].first = it[0].v;
    dg__touch(s, pg_no);
    if (!old) s->ph[pg_no].segs = send;   /* (all of the page is written here or, its lists'
                                            entries, by the device next: ~3/4 of it not sent) */
}

/* A large list's new continuation page, after page `after`, for a device batch's room: the
   device's from the start (stale here, its host memory untouched; only its index entry goes),
   set up by the device (dg_up_la_init: no vertices, records to `end`, every entry -1), which
   writes its entries next. A page set up here and sent whole cost 4 KB of the sync (Kronecker
   scale 22: 9 MB when 1M removed edges came back). dg__room_layout made room in g->lafresh
   for all of them. */
static int32_t dg__la_fresh(dg_graph *g, dg__store *s, int32_t after, int32_t end, int touch) {   /* touch 0: */
    int32_t q = dg__page_take(s, after);                                                            /* nor its index */
    dg__stale_set(s, q);
    if (touch) {
        dg__touch_idx(s, q);
        s->ph[q].segs = 0;               /* (nothing of the host's copy goes) */
    }
    g->lafresh[2 * g->nlafresh] = q;
    g->lafresh[2 * g->nlafresh + 1] = end;
    g->nlafresh++;
    return q;
}

/* Writes one list as a large list starting on page cur; returns its last page. old = NULL:
   only the room, as dg__write_page. */
static int32_t dg__write_large(dg_graph *g, dg__store *s, int32_t cur, const dg__item *it,
                               const int32_t *old, const float *wold, const dg__arc *a) {
    const uint32_t P = g->P;
    int32_t *cg = DG__PAGE(g, s, cur), *tab, last = cur;
    size_t total = (size_t)it->deg + it->k, Lf = dg__la_pages_after(g, total), left = total - dg__la_c0(g), j;
    dg__src src;
    src.old = old ? old + it->off + 1 : NULL; src.wold = old && wold ? wold + it->off + 1 : NULL;
    src.nold = it->deg; src.a = a ? a + it->ai : NULL; src.pos = 0;
    cg[0] = 1; cg[1] = (int32_t)P - 2; cg[2] = 1;
    DG__SLOT_OFF(g, cg, 0) = DG__HDR; DG__SLOT_VID(g, cg, 0) = it->v;
    cg[DG__HDR] = (int32_t)total;
    if (old) dg__src_take(s, (size_t)cur * P + DG__HDR + 1, &src, dg__la_c0(g));
    s->ph[cur].fill = P;
    s->idx[cur].first = it->v; s->idx[cur].la_pos = 0;
    dg__la_table_fit(s, cur, 1, Lf);
    tab = dg__la_pages(s, cur);
    for (j = 1; j < Lf; j++) {
        size_t c = left < dg__la_cn(g) ? left : dg__la_cn(g);
        int32_t q = !old && g->lafresh ? dg__la_fresh(g, s, last, DG__HDR + (int32_t)c, 1) : dg__page_new(g, s, last, 1);
        s->idx[q].first = it->v; s->idx[q].la_pos = (int32_t)j;
        tab[j] = q;
        if (old) dg__src_take(s, (size_t)q * P + DG__HDR, &src, c);
        if (old || !g->lafresh) DG__PAGE(g, s, q)[1] = DG__HDR + (int32_t)c;
        s->ph[q].fill = DG__HDR + (uint32_t)c;
        left -= c; last = q;
    }
    dg__la_set_len(s, cur, (int32_t)Lf, 1);
    dg__dir_set(s, it->v, cur, DG__HDR);
    s->large_lists++; s->large_pages += Lf;
    dg__touch(s, cur);
    if (old) dg__lh_appended(g, s, it->v, it->deg, it->deg + it->k);
    else {   /* room: the page is all written here but the entries, which the device writes */
        s->ph[cur].segs = dg__segs_outside(g, DG__HDR + 1, DG__HDR + 1 + dg__la_c0(g));
        dg__lh_free(g, s, it->v);
    }
    return last;
}

/* The arcs a[0..na) (sorted by source) go to lists of the k pages run[0..k), consecutive in
   logical order. Their lists with the new entries are laid out again: on one page if they fit,
   else on the run's pages and new pages after them, each filled to DG_PACK_FILL_NUM/DEN of its entries
   (packing a run together, not page by page, keeps a bulk load from leaving a part-filled page
   per old page); a list too long for one page becomes a large list; run pages left over are
   released. With commit = 0 only counts the new pages and LA-table entries this takes. */
static void dg__layout(dg_graph *g, dg__store *s, const int32_t *run, uint32_t k, const dg__item *it,
                       uint32_t n, const int32_t *old, const float *wold, const dg__arc *a, int commit,
                       size_t *pages, size_t *latab);
static void dg__repack(dg_graph *g, dg__store *s, const int32_t *run, uint32_t k, const dg__arc *a,
                       size_t na, int commit, size_t *pages, size_t *latab) {
    const uint32_t P = g->P;
    dg__item *it = g->items;
    uint32_t n = 0, r;
    size_t ai = 0;
    for (r = 0; r < k; r++) {
        const int32_t *pg = DG__PAGE(g, s, run[r]);
        uint32_t j, pn = (uint32_t)pg[0];
        for (j = 0; j < pn; j++, n++) {
            it[n].v = DG__SLOT_VID(g, pg, j);
            it[n].off = (commit ? (size_t)r : (size_t)run[r]) * P + (size_t)DG__SLOT_OFF(g, pg, j);
            it[n].deg = (uint32_t)pg[DG__SLOT_OFF(g, pg, j)];
            it[n].ai = ai;
            it[n].k = 0;
            while (ai < na && a[ai].src == it[n].v) { ai++; it[n].k++; }
        }
    }
    DG_ASSERT(ai == na);
    if (commit) {                                      /* the old lists are read from a copy */
        for (r = 0; r < k; r++) {
            memcpy(g->tmp + (size_t)r * P, DG__PAGE(g, s, run[r]), P * sizeof(int32_t));
            if (s->wpool) memcpy(g->wtmp + (size_t)r * P, s->wpool + (size_t)run[r] * P, P * sizeof(float));
        }
    }
    dg__layout(g, s, run, k, it, n, commit ? g->tmp : s->pool, s->wpool ? (commit ? g->wtmp : s->wpool) : NULL,
               a, commit, pages, latab);
}
/* The greedy layout of dg__repack: lists it[0..n) (old entries at it->off of old, new arcs
   at it->ai of a) onto the run's pages and new ones. old = NULL: only the room (>>update). */
static void dg__layout(dg_graph *g, dg__store *s, const int32_t *run, uint32_t k, const dg__item *it,
                       uint32_t n, const int32_t *old, const float *wold, const dg__arc *a, int commit,
                       size_t *pages, size_t *latab) {
    const uint32_t P = g->P, T = P / DG_PACK_FILL_DEN * DG_PACK_FILL_NUM;
    uint32_t t, t0, used_pages = 0;
    size_t total = DG__HDR;
    int large = 0;
    int32_t last = -1;
    for (t = 0; t < n; t++) {
        total += dg__item_rec(&it[t]) + 2;
        large |= DG__HDR + dg__item_rec(&it[t]) + 2 > P;
    }
    for (t0 = 0; t0 < n; used_pages++) {               /* greedy: one page (or large list) a step */
        int32_t cur;
        if (used_pages < k) cur = run[used_pages];
        else if (commit) cur = dg__page_new(g, s, last, 0);
        else { cur = -1; (*pages)++; }
        last = cur;                                    /* the end of what is written so far */
        if (DG__HDR + dg__item_rec(&it[t0]) + 2 > P) {
            size_t Lf = dg__la_pages_after(g, (size_t)it[t0].deg + it[t0].k);
            if (commit) last = dg__write_large(g, s, cur, &it[t0], old, wold, a);
            else { *pages += Lf - 1; *latab += dg__pow2_at_least(Lf) + 1; }
            t0++;
        } else if (!large && total <= P) {             /* everything fits on one page */
            if (commit) dg__write_page(g, s, cur, it, n, old, wold, a);
            t0 = n;
        } else {
            /* take lists while they keep the page under the fill target; a list that passes
               it still goes in if it fits and the page is under 7/8 of the target (closing
               a page early wastes more than the slack it would keep) */
            uint32_t used = DG__HDR + dg__item_rec(&it[t0]) + 2;
            for (t = t0 + 1; t < n; t++) {
                uint32_t rr = dg__item_rec(&it[t]) + 2;
                if (DG__HDR + rr > P) break;
                if (used + rr > T && !(used + rr <= P && used < T / 8 * 7)) break;
                used += rr;
            }
            if (commit) dg__write_page(g, s, cur, it + t0, t - t0, old, wold, a);
            t0 = t;
        }
    }
    if (commit) for (t = used_pages; t < k; t++) dg__page_release(s, run[t]);
}

/* Arcs a page takes one by one (each O(1) in a gap; at worst a local shift or the page laid
   out again with its free space spread, dg__make_room). It was 8 until 2026-11-28: a page of
   many short lists takes tens of the arcs of a uniform batch, and 100k new uniform edges at
   Kronecker scale 20 spent half their time laying whole pages out again (57 -> 28 ms on the
   2-core VM with 64). */
#define DG__IN_PLACE_MAX 64
/* Applies arcs a[0..m) (sorted by source, new, deduplicated) to store s; with commit = 0 only
   adds up the pages and LA-table entries that this will take. A page that receives a few arcs
   and has room takes them one by one (O(1) each thanks to the gaps); a large list grows into
   its pages; other pages are laid out again, in runs of consecutive pages. */
static void dg__store_batch(dg_graph *g, dg__store *s, const dg__arc *a, size_t m, int commit,
                            size_t *pages, size_t *latab) {
    size_t i = 0, j, start = 0, g0;
    int32_t *run = g->runs;
    uint32_t k = 0;
    int in_place, rshard = 0;            /* (the run's shard: a run stops where it changes) */
    while (i < m) {
        int32_t p, *pg;
        size_t total;
        DG__PREFETCH_ARCS(g, s, a, i, m);
        p = s->dir[s->ds * (size_t)a[i].src];
        pg = DG__PAGE(g, s, p);
        j = i + 1;
        while (j < m && s->dir[s->ds * (size_t)a[j].src] == p) j++;
        total = j - i;
        in_place = !pg[2] && total <= DG__IN_PLACE_MAX && pg[0] > 1 && total <= dg__free_entries(g, s, p);
        if (k && (pg[2] || in_place || k == g->run_max || s->ph[run[k - 1]].next != p ||
                  dg__page_shard(g, s, p) != rshard)) {
            dg__repack(g, s, run, k, a + start, i - start, commit, pages, latab);
            k = 0;
        }
        if (pg[2]) {                                   /* a large list: append to its pages */
            if (commit) dg__la_grow(g, s, a[i].src, a + i, total);
            else { size_t pp, ll; dg__la_needs(g, s, a[i].src, total, &pp, &ll); *pages += pp; *latab += ll; }
        } else if (in_place) {                         /* a few arcs into its gaps: no rewrite */
            if (commit)
                for (g0 = i; i < j; i++) {      /* (the group's first arc prefetched above) */
                    if (i > g0 && a[i].src != a[i - 1].src) DG__PREFETCH_ARCS(g, s, a, i, m);
                    dg__append1(g, s, a[i].src, a[i].dst, a[i].w);
                }
        } else {
            if (!k) { start = i; rshard = dg__page_shard(g, s, p); }
            run[k++] = p;
        }
        i = j;
    }
    if (k) dg__repack(g, s, run, k, a + start, m - start, commit, pages, latab);
}

/* Checks the ids of a batch (negative, never created) and its weights; whether the vertices
   are alive is checked on the arcs sorted by source (dg__check_alive), where it reads the
   directory in order instead of at random. */
static dg_status dg__check_batch(dg_graph *g, const dg_edge *e, size_t n, const char *what, float *wmin) {
    size_t i;
    for (i = 0; i < n; i++) {
        if (e[i].src < 0 || e[i].dst < 0 || (size_t)e[i].src >= g->id_bound || (size_t)e[i].dst >= g->id_bound) {
            dg_vertex bad = e[i].src < 0 || (size_t)e[i].src >= g->id_bound ? e[i].src : e[i].dst;
            return dg__fail(g, bad < 0 ? DG_ERR_INVALID_ARGUMENT : DG_ERR_NOT_FOUND,
                            "%s: %s vertex id %d (edge %zu of the batch)", what,
                            bad < 0 ? "negative" : "never created", (int)bad, i);
        }
        if (wmin && e[i].weight < *wmin) *wmin = e[i].weight;
        if (wmin && e[i].weight != e[i].weight)
            return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: NaN weight on edge %zu (%d->%d)", what, i,
                            (int)e[i].src, (int)e[i].dst);
    }
    return DG_OK;
}

/* Every source of the sorted arcs a[0..m) is a live vertex. */
static dg_status dg__check_alive(dg_graph *g, const dg__arc *a, size_t m, const char *what) {
    size_t i;
    for (i = 0; i < m; i++)
        if ((i == 0 || a[i].src != a[i - 1].src) && g->st[0].dir[g->st[0].ds * (size_t)a[i].src] < 0)
            return dg__fail(g, DG_ERR_NOT_FOUND, "%s: vertex %d was removed", what, (int)a[i].src);
    return DG_OK;
}

/* Compaction: windows of up to run_max consecutive ordinary pages, each laid out again
   (dg__repack without arcs) when its lists need at least two pages fewer than it has at 7/8 (one
   page of slack for the greedy layout's list granularity); the layout releases the pages it
   leaves over. Walks from page `from` (live) in the logical order, about `budget` pages at most;
   *next = the page to go on from (-1: the end). Returns the pages released. The store's pages
   are the host's (no stale ones). */
static size_t dg__compact_store(dg_graph *g, dg__store *s, int32_t from, size_t budget, int32_t *next) {
    const uint32_t T = g->P / DG_PACK_FILL_DEN * DG_PACK_FILL_NUM - DG__HDR;
    size_t freed = 0, walked = 0;
    int32_t p = from;
    while (p >= 0 && walked < budget) {
        uint32_t k = 0;
        size_t used = 0, lists = 0;
        const int wshard = dg__page_shard(g, s, p);   /* (a window stops where the shard changes) */
        int32_t q;
        for (q = p; q >= 0 && k < g->run_max && !DG__PAGE(g, s, q)[2] &&
                    dg__page_shard(g, s, q) == wshard; q = s->ph[q].next) {
            g->runs[k++] = q;
            used += s->ph[q].fill - DG__HDR;
            lists += (size_t)DG__PAGE(g, s, q)[0];
        }
        if (k == 0) { p = s->ph[p].next; walked++; continue; }   /* a large list's page */
        p = q;
        walked += k;
        if (lists && k >= 2 && (used + T - 1) / T + 1 < k) {
            size_t pages = 0, lat = 0, live = s->live_pages;
            dg__repack(g, s, g->runs, k, NULL, 0, 0, &pages, &lat);
            if (pages || lat) continue;                  /* (it would take more: left as it is) */
            dg__repack(g, s, g->runs, k, NULL, 0, 1, &pages, &lat);
            freed += live - s->live_pages;
        }
    }
    *next = p;
    return freed;
}

/* After a host change that may have added pages (a batch, or a single insertion), given each
   store's live pages before it: a store whose fill, estimated from its counts (its arcs,
   DG__VREC entries a vertex, the pages' headers, over its live pages' entries), is below
   DG__AUTO_FILL_NUM / DG__AUTO_FILL_DEN is compacted, once host changes have added an eighth as
   many pages as it has since its last compaction (s->compact_credit). Batches that grow lists
   leave pages behind nearly empty (a list that outgrew its page moved on; Kronecker scale 18
   added in 64 host batches: fill 0.48, 17,316 pages, against 0.80 loaded at once;
   bench/NOTES.md). The credit keeps the walk's cost in proportion to the host's own growth: a
   store whose fill compaction cannot raise (large lists' last pages), or one that device batches
   grew, is not walked by every small change. A batch walks the whole store at once; a single
   insertion walks DG__AUTO_STEP pages of it and leaves the rest to the next ones
   (s->compact_next), so no call waits for a whole walk. Not while pages or directory blocks a
   device batch wrote are unread (a single call after device batches reads only its own). */
#define DG__AUTO_FILL_NUM 7
#define DG__AUTO_FILL_DEN 10
#define DG__AUTO_MIN_PAGES 64
#define DG__AUTO_CREDIT 8         /* pages added since the last compaction: 1/8 of the store's */
#define DG__AUTO_STEP 64          /* pages of a walk a single insertion takes on */
#define DG__VREC 3                /* entries of a vertex's record (degree, slot, ...) */
static void dg__auto_compact(dg_graph *g, const size_t *before, int whole) {
    int si;
    for (si = 0; si < g->nstores; si++) {
        dg__store *s = &g->st[si];
        const uint64_t used = (uint64_t)g->narcs + (uint64_t)DG__VREC * g->nverts + (uint64_t)DG__HDR * s->live_pages,
                       have = (uint64_t)s->live_pages * g->P;
        if (s->live_pages > before[si]) s->compact_credit += s->live_pages - before[si];
        if (s->nstale || g->dd.ndev) continue;
        if (s->compact_next < 0 || (uint32_t)s->compact_next >= s->page_hw || s->idx[s->compact_next].first < 0) {
            s->compact_next = -1;                        /* no walk, or its page was released */
            if (s->live_pages < DG__AUTO_MIN_PAGES || DG__AUTO_CREDIT * s->compact_credit < s->live_pages) continue;
            if (used * DG__AUTO_FILL_DEN >= have * DG__AUTO_FILL_NUM) continue;
            s->compact_next = s->head;
            s->compact_credit = 0;
        }
        dg__compact_store(g, s, s->compact_next, whole ? (size_t)-1 : DG__AUTO_STEP, &s->compact_next);
    }
}

/* Builds the arcs of a batch: u->v, and v->u where the graph is undirected (or both_dirs). */
static size_t dg__batch_arcs(const dg_graph *g, const dg_edge *e, size_t n, int both_dirs, dg__arc *a) {
    size_t i, m = 0;
    int two = g->nstores == 1 || both_dirs;
    for (i = 0; i < n; i++) {
        float w = g->desc.weighted ? e[i].weight : 1.0f;
        a[m].src = e[i].src; a[m].dst = e[i].dst; a[m].w = w; m++;
        if (two && e[i].src != e[i].dst) { a[m].src = e[i].dst; a[m].dst = e[i].src; a[m].w = w; m++; }
    }
    return m;
}

static dg_status dg__add_edges_ex(dg_graph *g, const dg_edge *e, size_t n, int flags, size_t *added) {
    dg__arc *A = NULL, *B = NULL, *C = NULL, *a;
    dg__lhash *h;
    uint32_t deg;
    int32_t *mpos = NULL;
    size_t cap, m, i, k, nadd = 0, pages[2] = {0, 0}, lat[2] = {0, 0}, live[2];
    dg_status st = DG_OK;
    int keep_min = (flags & DG__BATCH_KEEP_MIN) && g->desc.weighted, s;
    float wmin;                   /* the batch's smallest weight, kept only if the batch lands */
    if (added) *added = 0;
    if (!g || (!e && n)) return g ? dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_add_edges: NULL edges") : DG_ERR_INVALID_ARGUMENT;
    if (flags) dg__clog_lose(g);                 /* a file: results start again */
    else dg__clog_edges(g, DG__CH_INSERT, e, n);
    if (!flags && n && dg__batch_on_device(g, n)) return dg__dev_batch(g, e, NULL, n, 1, "dg_add_edges", added);
    wmin = g->wmin;
    DG__TRY(dg__fresh_all(g));                   /* (from here on every way out is `done`: */
    DG__TRY(dg__check_batch(g, e, n, "dg_add_edges", &wmin));   /* it frees owned edges) */
    if (n == 0) goto done;
    if (n > ((size_t)-1 / 2) / sizeof(dg__arc)) { st = dg__fail(g, DG_ERR_LIMIT, "dg_add_edges: batch too large"); goto done; }
    cap = 2 * n;
    A = dg__bscratch(g, 0, cap);
    B = dg__bscratch(g, 1, cap);
    if (g->nstores == 2) C = dg__bscratch(g, 2, cap);
    if (keep_min) mpos = (int32_t *)dg__alloc(g, g->id_bound * sizeof(int32_t));
    if (!A || !B || (g->nstores == 2 && !C) || (keep_min && !mpos)) { st = dg__oom(g, "batch"); goto done; }
    if ((st = dg__marks(g)) != DG_OK) goto done;
    m = dg__batch_arcs(g, e, n, flags & DG__BATCH_BOTH_DIRS, A);
    if (flags & DG__BATCH_OWN) { dg__free(g, (void *)(uintptr_t)e); e = NULL; }
    a = dg__sort_arcs(g, &g->st[0], A, B, m);
    /* (the sort's other buffer is free again: the reverse arcs of a directed graph use it) */
    if ((st = dg__check_alive(g, a, m, "dg_add_edges")) != DG_OK) goto done;
    /* drop arcs already present and repeats (first wins, or the smallest weight with keep_min) */
    for (i = 0, k = 0; i < m;) {
        dg_vertex u = a[i].src;
        size_t j = i, k0 = k;
        DG__PREFETCH_ARCS(g, &g->st[0], a, i, m);
        while (j < m && a[j].src == u) j++;
        deg = dg__deg(g, &g->st[0], u);
        h = dg__lh_for(g, &g->st[0], u, deg, j - i);
        if (h) {
            /* a long list: whether an arc is present comes from its index; the marks only
               catch repeats within the batch */
            for (; i < m && a[i].src == u; i++) {
                int32_t d = a[i].dst;
                if (DG__MARKED(g, d)) {
                    if (keep_min && a[i].w < a[mpos[d]].w) a[mpos[d]].w = a[i].w;
                    continue;
                }
                if (dg__lh_slot(h, d) >= 0) continue;
                DG__MARK(g, d);
                if (mpos) mpos[d] = (int32_t)k;
                a[k++] = a[i];
                nadd += g->nstores == 2 || a[i].src <= a[i].dst;
            }
            for (j = k0; j < k; j++) DG__UNMARK(g, a[j].dst);
            continue;
        }
        if ((deg == 0 && j - i <= 32) || j - i <= DG__FEW_ARCS) {
            /* a short group into an empty list (the common case of a load), or a few arcs for
               a short list (a uniform graph's usual case): compare with the arcs kept so far,
               in cache, and look each up in the list, instead of marking the list and
               unmarking it */
            for (; i < j; i++) {
                size_t x;
                for (x = k0; x < k && a[x].dst != a[i].dst; x++) {}
                if (x < k) {
                    if (keep_min && a[i].w < a[x].w) a[x].w = a[i].w;
                    continue;
                }
                if (deg && dg__find(g, &g->st[0], u, a[i].dst) != (size_t)-1) continue;
                a[k++] = a[i];
                nadd += g->nstores == 2 || a[i].src <= a[i].dst;
            }
            continue;
        }
        dg__mark_list(g, &g->st[0], u, mpos, 1);
        for (; i < m && a[i].src == u; i++) {
            int32_t d = a[i].dst;
            if (DG__MARKED(g, d)) {
                if (keep_min && mpos[d] >= 0 && a[i].w < a[mpos[d]].w) a[mpos[d]].w = a[i].w;
                continue;
            }
            DG__MARK(g, d);
            if (mpos) mpos[d] = (int32_t)k;
            a[k++] = a[i];
            nadd += g->nstores == 2 || a[i].src <= a[i].dst;
        }
        dg__mark_list(g, &g->st[0], u, NULL, 0);
        for (j = k0; j < k; j++) DG__UNMARK(g, a[j].dst);
    }
    m = k;
    if (m == 0) goto done;
    live[0] = g->st[0].live_pages; live[1] = g->st[1].live_pages;
    /* plan both stores, reserve, then commit: nothing can fail after the first write */
    dg__store_batch(g, &g->st[0], a, m, 0, &pages[0], &lat[0]);
    if (g->nstores == 2) {
        dg__arc *t = a == A ? B : A, *r;
        for (i = 0; i < m; i++) { t[i].src = a[i].dst; t[i].dst = a[i].src; t[i].w = a[i].w; }
        r = dg__sort_arcs(g, &g->st[1], t, C, m);
        if ((st = dg__check_alive(g, r, m, "dg_add_edges")) != DG_OK) goto done;
        dg__store_batch(g, &g->st[1], r, m, 0, &pages[1], &lat[1]);
        for (s = 0; s < 2; s++) {
            if ((st = dg__reserve_pages(g, &g->st[s], pages[s])) != DG_OK) goto done;
            if ((st = dg__latab_reserve(g, &g->st[s], lat[s])) != DG_OK) goto done;
        }
        dg__store_batch(g, &g->st[0], a, m, 1, &pages[0], &lat[0]);
        dg__store_batch(g, &g->st[1], r, m, 1, &pages[1], &lat[1]);
    } else {
        if ((st = dg__reserve_pages(g, &g->st[0], pages[0])) != DG_OK) goto done;
        if ((st = dg__latab_reserve(g, &g->st[0], lat[0])) != DG_OK) goto done;
        dg__store_batch(g, &g->st[0], a, m, 1, &pages[0], &lat[0]);
    }
    g->narcs += m;
    g->nedges += nadd;
    if (nadd) g->ver_ins++;
    if (added) *added = nadd;
    dg__auto_compact(g, live, 1);
done:
    if (st == DG_OK && wmin < g->wmin) g->wmin = wmin;
    dg__free(g, mpos);
    dg__bscratch_trim(g);
    if ((flags & DG__BATCH_OWN) && e) dg__free(g, (void *)(uintptr_t)e);
    return st;
}

DG_API dg_status dg_add_edges(dg_graph *g, const dg_edge *e, size_t n, size_t *added) {
    return dg__add_edges_ex(g, e, n, 0, added);
}

/* The marked entry d at pos of u's list (deg entries) goes: its mark cleared, the arc written
   to r[k] if r, the last entry in its place. */
static void dg__remove_marked(dg_graph *g, dg__store *s, dg_vertex u, size_t pos, int32_t d, uint32_t deg,
                              dg__arc *r, size_t k) {
    DG__UNMARK(g, d);
    if (r) { r[k].src = u; r[k].dst = d; r[k].w = 1.0f; }
    dg__swap_last(g, s, u, pos, deg);
}
/* Removes from each list the entries named by the arcs a[0..m) (sorted by source); the arcs
   actually removed are written to r (if not NULL). Returns how many were removed. */
static size_t dg__store_remove_batch(dg_graph *g, dg__store *s, const dg__arc *a, size_t m, dg__arc *r) {
    size_t i = 0, nr = 0;
    while (i < m) {
        dg_vertex u = a[i].src;
        uint32_t deg, x = 0;
        size_t i0 = i, t = i;
        DG__PREFETCH_ARCS(g, s, a, i, m);
        deg = dg__deg(g, s, u);
        dg__lhash *h;
        while (t < m && a[t].src == u) t++;
        t -= i;
        h = dg__lh_for(g, s, u, deg, t);
        if (h) {   /* a long list: each entry found through its index, no scan */
            for (; i < m && a[i].src == u; i++) {
                size_t at = dg__lh_find(g, s, u, h, a[i].dst);
                if (at == (size_t)-1) continue;
                if (r) { r[nr].src = u; r[nr].dst = a[i].dst; r[nr].w = 1.0f; }
                nr++;
                dg__swap_last(g, s, u, at, deg--);
            }
            dg__truncate_list(g, s, u, deg);
            continue;
        }
        for (; i < m && a[i].src == u; i++) DG__MARK(g, a[i].dst);
        /* an ordinary list is one run from base (a loop of its own: the test per entry cost
           10%); a large list's entries are found page by page */
        if (!DG__PAGE(g, s, s->dir[s->ds * (size_t)u])[2]) {
            const size_t base = (size_t)s->dir[s->ds * (size_t)u] * g->P + (size_t)s->dir[s->ds * (size_t)u + 1] + 1;
            while (x < deg) {
                const int32_t d = s->pool[base + x];
                if (DG__MARKED(g, d)) dg__remove_marked(g, s, u, base + x, d, deg--, r, nr++); else x++;
            }
        } else {
            while (x < deg) {
                const size_t at = dg__list_at(g, s, u, x);
                const int32_t d = s->pool[at];
                if (DG__MARKED(g, d)) dg__remove_marked(g, s, u, at, d, deg--, r, nr++); else x++;
            }
        }
        dg__truncate_list(g, s, u, deg);
        for (; i0 < i; i0++) DG__UNMARK(g, a[i0].dst);
    }
    return nr;
}

DG_API dg_status dg_remove_edges(dg_graph *g, const dg_edge *e, size_t n, size_t *removed) {
    dg__arc *A = NULL, *B = NULL, *R = NULL, *a;
    size_t m, nr, i, nedges = 0, live[2];
    dg_status st;
    if (removed) *removed = 0;
    if (!g || (!e && n)) return g ? dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_remove_edges: NULL edges") : DG_ERR_INVALID_ARGUMENT;
    dg__clog_edges(g, DG__CH_DELETE, e, n);
    if (n && dg__batch_on_device(g, n)) return dg__dev_batch(g, e, NULL, n, 0, "dg_remove_edges", removed);
    if ((st = dg__fresh_all(g)) != DG_OK) return st;
    if ((st = dg__check_batch(g, e, n, "dg_remove_edges", NULL)) != DG_OK) return st;
    if (n == 0) return DG_OK;
    if (n > ((size_t)-1 / 2) / sizeof(dg__arc)) return dg__fail(g, DG_ERR_LIMIT, "dg_remove_edges: batch too large");
    A = dg__bscratch(g, 0, 2 * n);
    B = dg__bscratch(g, 1, 2 * n);
    R = dg__bscratch(g, 2, 2 * n);
    if (!A || !B || !R) { st = dg__oom(g, "batch"); goto done; }
    if ((st = dg__marks(g)) != DG_OK) goto done;
    for (i = 0; i < n; i++) {   /* (ids in range: dg__check_batch; the directory entries read
                                   DG__PF_DIR edges ahead, so that their misses overlap) */
        if (i + DG__PF_DIR < n) {
            DG__PREFETCH(&g->st[0].dir[g->st[0].ds * (size_t)e[i + DG__PF_DIR].src]);
            DG__PREFETCH(&g->st[0].dir[g->st[0].ds * (size_t)e[i + DG__PF_DIR].dst]);
        }
        if ((st = dg__check_edge(g, e[i].src, e[i].dst, "dg_remove_edges")) != DG_OK) goto done;
    }
    m = dg__batch_arcs(g, e, n, 0, A);
    a = dg__sort_arcs(g, &g->st[0], A, B, m);
    live[0] = g->st[0].live_pages; live[1] = g->st[1].live_pages;
    nr = dg__store_remove_batch(g, &g->st[0], a, m, R);
    for (i = 0; i < nr; i++) nedges += g->nstores == 2 || R[i].src <= R[i].dst;
    if (g->nstores == 2 && nr) {
        dg__arc *t = a == A ? B : A;
        for (i = 0; i < nr; i++) { t[i].src = R[i].dst; t[i].dst = R[i].src; }
        a = dg__sort_arcs(g, &g->st[1], t, R, nr);
        dg__store_remove_batch(g, &g->st[1], a, nr, NULL);
    }
    g->narcs -= nr;
    g->nedges -= nedges;
    if (nr) g->ver_del++;
    if (removed) *removed = nedges;
    dg__auto_compact(g, live, 1);
done:
    dg__bscratch_trim(g);
    return st;
}

DG_API dg_status dg_compact(dg_graph *g, size_t *released) {
    dg_status st;
    size_t freed = 0;
    int si;
    if (released) *released = 0;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__fresh_all(g)) != DG_OK) return st;
    for (si = 0; si < g->nstores; si++) {
        dg__store *s = &g->st[si];
        freed += dg__compact_store(g, s, s->head, (size_t)-1, &s->compact_next);
        s->compact_credit = 0;
    }
    if (released) *released = freed;
    return DG_OK;
}

/* Shards the host store by vertex range: n shards, bounds[0..n-2] the first ids of shards
   1..n-1 (ascending, positive); n <= 1 drops the shards. Each page a cut falls inside is split
   there (dg__move_tail onto a new page after it), so that every page holds one shard's lists
   from then on (the batches' runs, the compaction's windows and new vertices keep it so). Step 2
   of issue 20's plan for several devices (bench/NOTES.md), a test hook for now: nothing else
   reads the shards yet. Not with reuse_ids (a reused id joins the last page). All-or-nothing. */
static dg_status dg__shard_set(dg_graph *g, const int32_t *bounds, int n) {
    int32_t *cut;
    int i, si;
    dg_status st;
    if (n <= 1) { dg__free(g, g->cut); g->cut = NULL; g->ncut = 0; return DG_OK; }
    if (g->desc.reuse_ids) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "shards: not with reuse_ids");
    for (i = 0; i + 1 < n; i++)
        if (bounds[i] <= (i ? bounds[i - 1] : 0))
            return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "shards: bound %d (%d) is not above the one before", i, (int)bounds[i]);
    if ((st = dg__fresh_all(g)) != DG_OK) return st;
    for (si = 0; si < g->nstores; si++)                  /* at most a new page a cut */
        if ((st = dg__reserve_pages(g, &g->st[si], (size_t)n)) != DG_OK) return st;
    if (!(cut = (int32_t *)dg__alloc(g, ((size_t)n + 1) * sizeof *cut))) return dg__oom(g, "shards");
    cut[0] = 0;
    for (i = 1; i < n; i++) cut[i] = bounds[i - 1];
    cut[n] = INT32_MAX;
    dg__free(g, g->cut);
    g->cut = cut; g->ncut = n;
    for (si = 0; si < g->nstores; si++) {
        dg__store *s = &g->st[si];
        for (i = 1; i < n; i++) {                        /* the page of the cut's first live id */
            size_t v = (size_t)cut[i];
            int32_t p, *pg;
            uint32_t j;
            while (v < g->id_bound && s->dir[s->ds * v] < 0) v++;
            if (v >= g->id_bound) break;
            p = s->dir[s->ds * v];
            pg = DG__PAGE(g, s, p);
            if (pg[2] || (j = dg__slot_of(g, pg, (dg_vertex)v)) == 0) continue;   /* (a page's start) */
            dg__move_tail(g, s, p, j, dg__page_new(g, s, p, 0));
        }
    }
    return DG_OK;
}

/* =========================================================================
   Introspection: statistics and the consistency checker   >>validate
   ========================================================================= */
static size_t dg__store_bytes(const dg_graph *g, const dg__store *s) {
    return (size_t)s->page_cap * g->P * (sizeof(int32_t) + (s->wpool ? sizeof(float) : 0)) +
           (size_t)s->page_cap * (sizeof(dg__pindex) + sizeof(dg__phost)) + ((size_t)s->page_cap + 31) / 32 * 4 +
           s->latab_cap * sizeof(int32_t) + s->lh_cap * sizeof(dg__lhash *) + s->lh_bytes +
           s->lhv_cap * sizeof(dg_vertex);
}

DG_API dg_status dg_get_stats(const dg_graph *g, dg_stats *out) {
    int i;
    dg_status st;
    if (!g || !out) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__fresh_all(g)) != DG_OK) return st;     /* the pages' fill */
    memset(out, 0, sizeof *out);
    out->vertices = g->nverts; out->edges = g->nedges; out->arcs = g->narcs;
    out->page_size = g->P;
    out->host_bytes = sizeof *g + (size_t)g->run_max * g->P * (sizeof(int32_t) + (g->desc.weighted ? sizeof(float) : 0) + sizeof(dg__item) / 3) +
                      g->mark_cap * sizeof(uint64_t) + 2 * (size_t)g->nstores * g->vcap * sizeof(int32_t);
    for (i = 0; i < g->nstores; i++) {
        const dg__store *s = &g->st[i];
        int32_t p;
        out->pages += s->live_pages;
        out->free_pages += s->nfree;
        out->large_lists += s->large_lists;
        out->large_pages += s->large_pages;
        out->pages_changed += s->changed_pages;
        out->host_bytes += dg__store_bytes(g, s);
        for (p = s->head; p >= 0; p = s->ph[p].next) {
            out->entries_used += s->ph[p].fill;
        }
    }
    dg__dev_stats(g, out);
    out->entries_allocated = out->pages * g->P;
    out->fill_ratio = out->entries_allocated ? (double)out->entries_used / (double)out->entries_allocated : 0.0;
    return DG_OK;
}

typedef struct dg__keyw { uint64_t key; float w; } dg__keyw;   /* key first: sorts as a u64 */
static int dg__cmp_u64(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

#define DG__CHECK(cond, ...) do { if (!(cond)) { st = dg__fail(g, DG_ERR_CORRUPT, __VA_ARGS__); goto done; } } while (0)

/* Walks one store: page order, headers, slots, records, the index, the LA table, the directory. */
/* Every list hash index holds exactly its list: deg entries, each position found by its key. */
static dg_status dg__validate_lhash(dg_graph *g) {
    dg_status st = DG_OK;
    int si;
    size_t u;
    for (si = 0; si < g->nstores; si++) {
        dg__store *s = &g->st[si];
        size_t have = 0, bytes = 0;
        for (u = 0; u < s->nlh; u++) {
            DG__CHECK((size_t)s->lhv[u] < s->lh_cap && s->lh[s->lhv[u]] && s->lh[s->lhv[u]]->at == u,
                      "store %d: list of hash indexes broken at %zu", si, u);
            bytes += sizeof(dg__lhash) + ((size_t)1 << s->lh[s->lhv[u]]->bits) * sizeof(uint64_t);
        }
        DG__CHECK(bytes == s->lh_bytes, "store %d: hash indexes of %zu bytes, %zu counted", si, bytes, s->lh_bytes);
        for (u = 0; u < s->lh_cap; u++) {
            const dg__lhash *h = s->lh[u];
            uint32_t x, deg;
            if (!h) continue;
            DG__CHECK(++have <= s->nlh, "store %d: more hash indexes than the %zu listed", si, s->nlh);
            DG__CHECK(u < g->id_bound && s->dir[s->ds * u] >= 0, "store %d: hash index of removed vertex %zu", si, u);
            deg = dg__deg(g, s, (dg_vertex)u);
            DG__CHECK(h->n == deg, "store %d: hash index of vertex %zu holds %u entries, the list %u", si, u, (unsigned)h->n, (unsigned)deg);
            DG__CHECK(deg >= DG__LH_KEEP, "store %d: hash index of vertex %zu, a list of %u entries (fewer than %u)", si, u, (unsigned)deg, (unsigned)DG__LH_KEEP);
            for (x = 0; x < deg; x++) {
                dg_vertex v = s->pool[dg__list_at(g, s, (dg_vertex)u, x)];
                int64_t at = dg__lh_slot(h, v);
                DG__CHECK(at >= 0 && (uint32_t)h->slot[at] == x, "store %d: hash index of vertex %zu does not find entry %u (%d)", si, u, (unsigned)x, (int)v);
            }
        }
    }
done:
    return st;
}

/* targets = 0: the lists' entries are not checked here (dg__img_verify checks them itself). */
static dg_status dg__validate_store(dg_graph *g, int si, uint8_t *seen, uint64_t *arcs, size_t *narcs,
                                   int targets) {
    dg__store *s = &g->st[si];
    const uint32_t P = g->P;
    dg_status st = DG_OK;
    int32_t p, prevp = -1, last_vid = -1;
    size_t live = 0, nfree = 0, large = 0, lpages = 0, verts = 0, v, changed = 0;
    memset(seen, 0, s->page_hw);
    for (p = s->free_head; p >= 0; p = s->ph[p].next) {
        DG__CHECK((uint32_t)p < s->page_hw && !seen[p], "store %d: free list broken at page %d", si, (int)p);
        DG__CHECK(s->idx[p].first == -1, "store %d: free page %d has first vertex %d", si, (int)p, (int)s->idx[p].first);
        seen[p] = 2; nfree++;
    }
    DG__CHECK(nfree == s->nfree, "store %d: %zu free pages listed, %u counted", si, nfree, (unsigned)s->nfree);
    for (p = 0; p < (int32_t)s->page_hw; p++) changed += s->ph[p].dirty != 0;
    DG__CHECK(changed == s->changed_pages, "store %d: changed-page count %zu, marks %zu", si, s->changed_pages, changed);
    for (p = s->head; p >= 0; prevp = p, p = s->ph[p].next) {
        const int32_t *pg = DG__PAGE(g, s, p);
        const dg__pindex *ix = &s->idx[p];
        DG__CHECK((uint32_t)p < s->page_hw && !seen[p], "store %d: page order broken at page %d", si, (int)p);
        DG__CHECK(s->ph[p].prev == prevp, "store %d: page %d prev link %d, expected %d", si, (int)p, (int)s->ph[p].prev, (int)prevp);
        seen[p] = 1; live++;
        DG__CHECK(pg[2] == 0 || pg[2] == 1, "store %d page %d: bad large flag %d", si, (int)p, (int)pg[2]);
        if (pg[2] && pg[0] == 0) { DG__CHECK(0, "store %d page %d: continuation page outside its list", si, (int)p); }
        if (!pg[2]) {
            uint32_t i, n = (uint32_t)pg[0];
            int32_t expect = DG__HDR;
            DG__CHECK(n >= 1, "store %d page %d: ordinary page without vertices", si, (int)p);
            DG__CHECK(pg[1] >= DG__HDR && (uint64_t)pg[1] + 2 * n <= P, "store %d page %d: records end %d with %u slots overflows", si, (int)p, (int)pg[1], n);
            DG__CHECK(ix->la_pos == -1 && ix->la_len == -1 && ix->la_tab == -1, "store %d page %d: ordinary page with LA index fields", si, (int)p);
            DG__CHECK(ix->first == DG__SLOT_VID(g, pg, 0), "store %d page %d: index first %d, slot 0 holds %d", si, (int)p, (int)ix->first, (int)DG__SLOT_VID(g, pg, 0));
            uint32_t used = DG__HDR + 2 * n;
            int32_t x;
            for (i = 0; i < n; i++) {
                int32_t vid = DG__SLOT_VID(g, pg, i), off = DG__SLOT_OFF(g, pg, i);
                DG__CHECK(vid > last_vid || g->desc.reuse_ids, "store %d page %d slot %u: vertex %d not above %d", si, (int)p, i, (int)vid, (int)last_vid);
                DG__CHECK((size_t)vid < g->id_bound, "store %d page %d slot %u: vertex %d beyond the id bound", si, (int)p, i, (int)vid);
                DG__CHECK(off >= expect && off < pg[1], "store %d page %d slot %u: record offset %d overlaps the previous list (ends %d)", si, (int)p, i, (int)off, (int)expect);
                for (x = expect; x < off; x++) DG__CHECK(pg[x] == -1, "store %d page %d: gap entry %d is %d, not -1", si, (int)p, (int)x, (int)pg[x]);
                DG__CHECK(pg[off] >= 0 && off + 1 + pg[off] <= pg[1], "store %d page %d: degree %d of vertex %d overflows", si, (int)p, (int)pg[off], (int)vid);
                DG__CHECK(s->dir[s->ds * (size_t)vid] == p && s->dir[s->ds * (size_t)vid + 1] == off, "store %d: directory of vertex %d is (%d,%d), page says (%d,%d)", si, (int)vid, (int)s->dir[s->ds * (size_t)vid], (int)s->dir[s->ds * (size_t)vid + 1], (int)p, (int)off);
                expect = off + 1 + pg[off];
                used += 1 + (uint32_t)pg[off];
                last_vid = vid; verts++;
            }
            DG__CHECK(expect == pg[1], "store %d page %d: records end at %d, header says %d", si, (int)p, (int)expect, (int)pg[1]);
            DG__CHECK(!g->cut || dg__shard_of(g, DG__SLOT_VID(g, pg, n - 1)) == dg__shard_of(g, DG__SLOT_VID(g, pg, 0)),
                      "store %d page %d: vertices %d and %d of shards %d and %d", si, (int)p, (int)DG__SLOT_VID(g, pg, 0),
                      (int)DG__SLOT_VID(g, pg, n - 1), dg__shard_of(g, DG__SLOT_VID(g, pg, 0)),
                      dg__shard_of(g, DG__SLOT_VID(g, pg, n - 1)));
            for (x = pg[1]; x < (int32_t)(P - 2 * n); x++) DG__CHECK(pg[x] == -1, "store %d page %d: free entry %d is %d, not -1", si, (int)p, (int)x, (int)pg[x]);
            DG__CHECK(used == s->ph[p].fill, "store %d page %d: %u entries used, fill says %u", si, (int)p, used, (unsigned)s->ph[p].fill);
        } else {
            int32_t vid = DG__SLOT_VID(g, pg, 0), L = ix->la_len, j, *tab, deg, x;
            size_t total = 0;
            DG__CHECK(pg[0] == 1 && DG__SLOT_OFF(g, pg, 0) == DG__HDR && pg[1] == (int32_t)P - 2 && s->ph[p].fill == P, "store %d page %d: first page of a large list malformed", si, (int)p);
            DG__CHECK(ix->first == vid && ix->la_pos == 0 && L >= 2 && ix->la_tab >= 0 && (size_t)ix->la_tab < s->latab_len, "store %d page %d: index of a large list's first page", si, (int)p);
            DG__CHECK((vid > last_vid || g->desc.reuse_ids) && (size_t)vid < g->id_bound, "store %d page %d: large-list vertex %d out of order", si, (int)p, (int)vid);
            DG__CHECK(s->dir[s->ds * (size_t)vid] == p && s->dir[s->ds * (size_t)vid + 1] == DG__HDR, "store %d: directory of large-list vertex %d", si, (int)vid);
            DG__CHECK(s->latab[ix->la_tab] >= L && (size_t)ix->la_tab + 1 + (size_t)L <= s->latab_len, "store %d: LA table segment of vertex %d too small", si, (int)vid);
            tab = dg__la_pages(s, p);
            DG__CHECK(tab[0] == p, "store %d: LA table of vertex %d does not start at its page", si, (int)vid);
            deg = pg[DG__HDR];
            total = dg__la_c0(g);
            for (j = 1; j < L; j++) {
                int32_t q = s->ph[p].next, *qg;
                DG__CHECK(q >= 0 && q == tab[j], "store %d: page %d of the large list of %d is %d, table says %d", si, (int)j, (int)vid, (int)q, (int)tab[j]);
                DG__CHECK((uint32_t)q < s->page_hw && !seen[q], "store %d: large-list page %d reused", si, (int)q);
                DG__CHECK(s->ph[q].prev == p, "store %d: page %d prev link", si, (int)q);
                qg = DG__PAGE(g, s, q);
                DG__CHECK(qg[0] == 0 && qg[2] == 1 && s->idx[q].first == vid && s->idx[q].la_pos == j && s->idx[q].la_len == L && s->idx[q].la_tab == -1, "store %d: continuation page %d of vertex %d malformed", si, (int)q, (int)vid);
                DG__CHECK(j == L - 1 ? (qg[1] > DG__HDR && qg[1] <= (int32_t)P) : qg[1] == (int32_t)P, "store %d: continuation page %d of vertex %d not full / empty", si, (int)q, (int)vid);
                DG__CHECK(s->ph[q].fill == (uint32_t)qg[1], "store %d: continuation page %d fill", si, (int)q);
                for (x = qg[1]; x < (int32_t)P; x++) DG__CHECK(qg[x] == -1, "store %d: free entry %d of continuation page %d is not -1", si, (int)x, (int)q);
                total += (size_t)(qg[1] - DG__HDR);
                seen[q] = 1; live++; lpages++;
                p = q;
            }
            DG__CHECK(total == (size_t)deg, "store %d: large list of %d holds %zu entries, degree %d", si, (int)vid, total, (int)deg);
            large++; lpages++; verts++;
            last_vid = vid;
        }
    }
    DG__CHECK(prevp == s->tail, "store %d: tail is %d, last page %d", si, (int)s->tail, (int)prevp);
    DG__CHECK(live == s->live_pages && live + nfree == s->page_hw, "store %d: %zu live + %zu free pages, %zu counted, %u handed out", si, live, nfree, s->live_pages, (unsigned)s->page_hw);
    DG__CHECK(large == s->large_lists && lpages == s->large_pages, "store %d: large list counts", si);
    DG__CHECK(verts == g->nverts, "store %d: %zu vertices in pages, %zu counted", si, verts, g->nverts);
    for (v = 0; v < g->id_bound; v++) {
        int32_t dp = s->dir[s->ds * v];
        DG__CHECK(dp == -1 || ((uint32_t)dp < s->page_hw && seen[dp] == 1), "store %d: directory of vertex %zu names page %d", si, v, (int)dp);
        DG__CHECK((dp == -1) == (g->st[0].dir[g->st[0].ds * v] == -1), "store %d: vertex %zu alive in one store only", si, v);
        if (dp >= 0 && targets) {
            int32_t j, runs = dg__list_runs(g, s, (dg_vertex)v);
            for (j = 0; j < runs; j++) {
                uint32_t len, i;
                size_t at = dg__list_run(g, s, (dg_vertex)v, j, &len);
                for (i = 0; i < len; i++) {
                    int32_t d = s->pool[at + i];
                    DG__CHECK(dg__alive(g, d), "store %d: vertex %zu lists %d, which does not exist", si, v, (int)d);
                    DG__CHECK(!s->wpool || s->wpool[at + i] == s->wpool[at + i], "store %d: NaN weight", si);
                    if (arcs) arcs[(*narcs)++] = si == 0 ? ((uint64_t)v << 32 | (uint32_t)d) : ((uint64_t)(uint32_t)d << 32 | v);
                }
            }
        }
    }
done:
    return st;
}

DG_API dg_status dg_validate(dg_graph *g) {
    dg_status st = DG_OK;
    uint8_t *seen = NULL;
    uint64_t *a = NULL, *b = NULL;
    dg__keyw *kw = NULL;
    size_t na = 0, nb = 0, i, maxp = 1, self = 0;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    for (i = 0; i < (size_t)g->nstores; i++) {   /* the stale bits (before they are read back) */
        const dg__store *s = &g->st[i];
        size_t n = 0;
        uint32_t p;
        for (p = 0; p < s->page_cap; p++) {
            if (!dg__is_stale(s, (int32_t)p)) continue;
            n++;
            DG__CHECK(p < s->page_hw && s->idx[p].first >= 0, "store %zu: page %u is free and stale", i, (unsigned)p);
            DG__CHECK(!s->ph[p].segs, "store %zu: page %u is stale and has changes of the host", i, (unsigned)p);
        }
        DG__CHECK(n == s->nstale, "store %zu: %zu stale pages, %zu counted", i, n, s->nstale);
    }
    if ((st = dg__fresh_all(g)) != DG_OK) return st;
    for (i = 0; i < (size_t)g->nstores; i++) if (g->st[i].page_hw > maxp) maxp = g->st[i].page_hw;
    seen = (uint8_t *)dg__alloc(g, maxp);
    a = (uint64_t *)dg__alloc(g, (g->narcs + 1) * sizeof(uint64_t));
    b = (uint64_t *)dg__alloc(g, (g->narcs + 1) * sizeof(uint64_t));
    if (!seen || !a || !b) { st = dg__oom(g, "dg_validate"); goto done; }
    DG__CHECK(g->nverts <= g->id_bound, "more vertices than ids");
    DG__CHECK(g->desc.reuse_ids ? g->nfree_ids == g->id_bound - g->nverts : g->nfree_ids == 0,
              "%zu free ids listed, %zu ids not in use", g->nfree_ids, g->id_bound - g->nverts);
    for (i = 0; i < g->nfree_ids; i++)
        DG__CHECK(g->free_ids[i] >= 0 && (size_t)g->free_ids[i] < g->id_bound && !dg__alive(g, g->free_ids[i]),
                  "free id %d is in use or out of range", (int)g->free_ids[i]);
    {
        size_t alive = 0;
        for (i = 0; i < g->id_bound; i++) {
            alive += g->st[0].dir[g->st[0].ds * i] >= 0;
            DG__CHECK(g->st[0].dir[g->st[0].ds * i] >= 0 || g->st[0].dir[g->st[0].ds * i + 1] == -1, "removed vertex %zu has a record offset", i);
        }
        DG__CHECK(alive == g->nverts, "%zu vertices in the directory, %zu counted", alive, g->nverts);
        for (i = 0; i < g->mark_cap; i++) DG__CHECK(g->mark[i] == 0, "batch mark bits left set (word %zu)", i);
    }
    /* out-store arcs; the count is checked before writing more than narcs of them */
    {
        size_t cnt = 0;
        for (i = 0; i < g->id_bound; i++) if (g->st[0].dir[g->st[0].ds * i] >= 0) cnt += dg__deg(g, &g->st[0], (dg_vertex)i);
        DG__CHECK(cnt == g->narcs, "out-store holds %zu entries, %zu arcs counted", cnt, g->narcs);
        if (g->nstores == 2) {
            cnt = 0;
            for (i = 0; i < g->id_bound; i++) if (g->st[1].dir[g->st[1].ds * i] >= 0) cnt += dg__deg(g, &g->st[1], (dg_vertex)i);
            DG__CHECK(cnt == g->narcs, "in-store holds %zu entries, %zu arcs counted", cnt, g->narcs);
        }
    }
    if ((st = dg__validate_lhash(g)) != DG_OK) goto done;
    if ((st = dg__validate_store(g, 0, seen, a, &na, 1)) != DG_OK) goto done;
    qsort(a, na, sizeof *a, dg__cmp_u64);
    for (i = 0; i < na; i++) {
        DG__CHECK(i == 0 || a[i] != a[i - 1], "arc %d->%d stored twice", (int)(a[i] >> 32), (int)(uint32_t)a[i]);
        self += (a[i] >> 32) == (uint32_t)a[i];
    }
    if (g->nstores == 2) {
        if ((st = dg__validate_store(g, 1, seen, b, &nb, 1)) != DG_OK) goto done;
        DG__CHECK(g->nedges == g->narcs, "directed graph: %zu edges, %zu arcs", g->nedges, g->narcs);
    } else {
        for (i = 0; i < na; i++) b[i] = a[i] << 32 | a[i] >> 32;   /* the reverse of every arc */
        nb = na;
        DG__CHECK(g->nedges == (na - self) / 2 + self, "undirected graph: %zu edges counted, %zu arcs with %zu self-loops", g->nedges, na, self);
    }
    qsort(b, nb, sizeof *b, dg__cmp_u64);
    DG__CHECK(na == nb, "%zu arcs, %zu reverse arcs", na, nb);
    for (i = 0; i < na; i++)
        DG__CHECK(a[i] == b[i], "arc %d->%d has no reverse entry (or the reverse adjacency has an extra one)", (int)(a[i] >> 32), (int)(uint32_t)a[i]);
    if (g->nstores == 1 && g->st[0].wpool) {
        /* both directions of an undirected edge carry the same weight: sort (arc, weight)
           pairs and look each reverse arc up (O(E log E), not a list scan per arc) */
        size_t n = 0;
        kw = (dg__keyw *)dg__alloc(g, (na + 1) * sizeof *kw);
        if (!kw) { st = dg__oom(g, "dg_validate"); goto done; }
        for (i = 0; i < g->id_bound; i++) {
            int32_t j, runs;
            if (g->st[0].dir[g->st[0].ds * i] < 0) continue;
            runs = dg__list_runs(g, &g->st[0], (dg_vertex)i);
            for (j = 0; j < runs; j++) {
                uint32_t len, k;
                size_t at = dg__list_run(g, &g->st[0], (dg_vertex)i, j, &len);
                for (k = 0; k < len; k++) {
                    kw[n].key = (uint64_t)i << 32 | (uint32_t)g->st[0].pool[at + k];
                    kw[n].w = g->st[0].wpool[at + k];
                    n++;
                }
            }
        }
        qsort(kw, n, sizeof *kw, dg__cmp_u64);
        for (i = 0; i < n; i++) {
            dg__keyw rev, *r;
            rev.key = kw[i].key << 32 | kw[i].key >> 32;
            r = (dg__keyw *)bsearch(&rev, kw, n, sizeof *kw, dg__cmp_u64);
            DG__CHECK(r && r->w == kw[i].w, "undirected edge %d-%d has two weights", (int)(kw[i].key >> 32), (int)(uint32_t)kw[i].key);
        }
    }
done:
    dg__free(g, seen); dg__free(g, a); dg__free(g, b); dg__free(g, kw);
    return st;
}
#undef DG__CHECK

#ifdef DYNGRAPH_NO_OPENCL
/* =========================================================================
   Built with DYNGRAPH_NO_OPENCL: no device. Every device function says so.
   ========================================================================= */
static dg_status dg__no_device(dg_graph *g, const char *fn) {
    if (!g) return DG_ERR_NO_DEVICE;
    return dg__fail(g, DG_ERR_NO_DEVICE, "%s: dyngraph was built with DYNGRAPH_NO_OPENCL (no device)", fn);
}
static void dg__dev_free(dg_graph *g) { (void)g; }
static void dg__reach_free(dg_graph *g) { (void)g; }
static dg_status dg__fresh_pages(dg_graph *g, int si, const int32_t *pages, size_t n) {   /* never stale */
    (void)g; (void)si; (void)pages; (void)n;
    return DG_OK;
}
static dg_status dg__fresh_stale(dg_graph *g, int si) { (void)g; (void)si; (void)dg__stale_clear; return DG_OK; }
static dg_status dg__fresh_blocks(dg_graph *g, uint32_t *b, size_t n, int gather) {   /* never the device's */
    (void)g; (void)b; (void)n; (void)gather;
    return DG_OK;
}
static int dg__batch_on_device(const dg_graph *g, size_t n) { (void)g; (void)n; return 0; }  /* the host */
static dg_status dg__dev_batch(dg_graph *g, const dg_edge *he, cl_mem de, size_t n, int add, const char *fn,
                               size_t *changed) {
    (void)he; (void)de; (void)n; (void)add; (void)changed;
    return dg__no_device(g, fn);
}
static void dg__dev_stats(const dg_graph *g, dg_stats *out) { (void)g; (void)out; }
DG_API void dg_cache_clear(void) {}
DG_API dg_status dg_sync(dg_graph *g) { return dg__no_device(g, "dg_sync"); }
DG_API dg_status dg_add_edges_cl(dg_graph *g, cl_mem edges, size_t n, size_t *added) {
    (void)edges; (void)n; (void)added;
    return dg__no_device(g, "dg_add_edges_cl");
}
DG_API dg_status dg_remove_edges_cl(dg_graph *g, cl_mem edges, size_t n, size_t *removed) {
    (void)edges; (void)n; (void)removed;
    return dg__no_device(g, "dg_remove_edges_cl");
}
DG_API cl_context dg_cl_context(dg_graph *g) { dg__no_device(g, "dg_cl_context"); return NULL; }
DG_API cl_command_queue dg_cl_queue(dg_graph *g) { dg__no_device(g, "dg_cl_queue"); return NULL; }
DG_API cl_device_id dg_cl_device(dg_graph *g) { dg__no_device(g, "dg_cl_device"); return NULL; }
DG_API const char *dg_device_name(const dg_graph *g) { (void)g; return ""; }
DG_API void *dg_host_alloc(dg_graph *g, size_t bytes) { (void)bytes; dg__no_device(g, "dg_host_alloc"); return NULL; }
DG_API void dg_host_free(dg_graph *g, void *p) { (void)g; (void)p; }
DG_API dg_status dg_validate_device(dg_graph *g) { return dg__no_device(g, "dg_validate_device"); }
DG_API dg_status dg_scan(dg_graph *g, cl_mem in, cl_mem out, size_t n, uint32_t *total) {
    (void)in; (void)out; (void)n; (void)total;
    return dg__no_device(g, "dg_scan");
}
DG_API dg_status dg_frontier_create(dg_graph *g, size_t capacity, dg_frontier **out) {
    (void)capacity;
    if (out) *out = NULL;
    return dg__no_device(g, "dg_frontier_create");
}
DG_API void dg_frontier_destroy(dg_frontier *f) { (void)f; }
DG_API cl_mem dg_frontier_buffer(const dg_frontier *f) { (void)f; return NULL; }
DG_API dg_status dg_frontier_set(dg_frontier *f, const dg_vertex *ids, size_t n) {
    (void)f; (void)ids; (void)n;
    return DG_ERR_NO_DEVICE;
}
DG_API dg_status dg_frontier_all(dg_frontier *f) { (void)f; return DG_ERR_NO_DEVICE; }
DG_API dg_status dg_frontier_get(dg_frontier *f, dg_vertex *ids, size_t capacity, size_t *n) {
    (void)f; (void)ids; (void)capacity; (void)n;
    return DG_ERR_NO_DEVICE;
}
DG_API dg_status dg_program_create(dg_graph *g, const char *source, const dg_op *ops, size_t nops,
                                   dg_program **out) {
    (void)source; (void)ops; (void)nops;
    if (out) *out = NULL;
    return dg__no_device(g, "dg_program_create");
}
DG_API void dg_program_destroy(dg_program *p) { (void)p; }
DG_API dg_status dg_advance(dg_program *p, size_t op, const dg_frontier *in, dg_frontier *out, cl_mem data) {
    (void)p; (void)op; (void)in; (void)out; (void)data;
    return DG_ERR_NO_DEVICE;
}
DG_API dg_status dg_filter(dg_program *p, size_t op, const dg_frontier *in, dg_frontier *out, cl_mem data) {
    (void)p; (void)op; (void)in; (void)out; (void)data;
    return DG_ERR_NO_DEVICE;
}
DG_API dg_status dg_compute(dg_program *p, size_t op, const dg_frontier *in, cl_mem data) {
    (void)p; (void)op; (void)in; (void)data;
    return DG_ERR_NO_DEVICE;
}
DG_API dg_status dg_advance_ex(dg_program *p, size_t op, const dg_frontier *in, dg_frontier *out,
                               const dg_args *args) {
    (void)p; (void)op; (void)in; (void)out; (void)args;
    return DG_ERR_NO_DEVICE;
}
DG_API dg_status dg_filter_ex(dg_program *p, size_t op, const dg_frontier *in, dg_frontier *out,
                              const dg_args *args) {
    (void)p; (void)op; (void)in; (void)out; (void)args;
    return DG_ERR_NO_DEVICE;
}
DG_API dg_status dg_compute_ex(dg_program *p, size_t op, const dg_frontier *in, const dg_args *args) {
    (void)p; (void)op; (void)in; (void)args;
    return DG_ERR_NO_DEVICE;
}
DG_API dg_status dg_reduce(dg_program *p, size_t op, const dg_frontier *in, const dg_args *args,
                           dg_reduce_op how, double *result) {
    (void)p; (void)op; (void)in; (void)args; (void)how; (void)result;
    return DG_ERR_NO_DEVICE;
}
DG_API dg_status dg_bfs(dg_graph *g, dg_vertex source, int32_t *dist, const dg_bfs_options *opt) {
    (void)source; (void)dist; (void)opt;
    return dg__no_device(g, "dg_bfs");
}
DG_API dg_status dg_sssp(dg_graph *g, dg_vertex source, float *dist, const dg_sssp_options *opt) {
    (void)source; (void)dist; (void)opt;
    return dg__no_device(g, "dg_sssp");
}
DG_API dg_status dg_reach_ex(dg_graph *g, const dg_vertex *src, const dg_vertex *dst, size_t n,
                             uint8_t *reachable, const dg_reach_options *opt) {
    (void)src; (void)dst; (void)n; (void)reachable; (void)opt;
    return dg__no_device(g, "dg_reach");
}
DG_API dg_status dg_reach(dg_graph *g, const dg_vertex *src, const dg_vertex *dst, size_t n,
                          uint8_t *reachable) {
    return dg_reach_ex(g, src, dst, n, reachable, NULL);
}
DG_API dg_status dg_components(dg_graph *g, dg_vertex *label, size_t *count) {
    (void)label; (void)count;
    return dg__no_device(g, "dg_components");
}
DG_API dg_status dg_sort_pairs(dg_graph *g, cl_mem keys, cl_mem values, size_t n) {
    (void)keys; (void)values; (void)n;
    return dg__no_device(g, "dg_sort_pairs");
}
DG_API dg_status dg_scc(dg_graph *g, dg_vertex *label, size_t *count) {
    (void)label; (void)count;
    return dg__no_device(g, "dg_scc");
}
DG_API dg_status dg_triangles(dg_graph *g, uint64_t *total, uint64_t *per_vertex) {
    (void)total; (void)per_vertex;
    return dg__no_device(g, "dg_triangles");
}
DG_API dg_status dg_intersect(dg_graph *g, cl_mem pairs, size_t n, cl_mem counts) {
    (void)pairs; (void)n; (void)counts;
    return dg__no_device(g, "dg_intersect");
}
DG_API dg_status dg_pagerank(dg_graph *g, float *rank, const dg_pagerank_options *opt) {
    (void)rank; (void)opt;
    return dg__no_device(g, "dg_pagerank");
}
DG_API dg_status dg_result_create(dg_graph *g, const dg_result_desc *desc, dg_result **out) {
    (void)desc;
    if (out) *out = NULL;
    return dg__no_device(g, "dg_result_create");
}
DG_API void dg_result_destroy(dg_result *r) { (void)r; }
DG_API dg_status dg_result_update(dg_result *r, void *values, dg_result_stats *stats) {
    (void)r; (void)values; (void)stats;
    return DG_ERR_NO_DEVICE;
}
static void dg__results_detach(dg_graph *g) { (void)g; }
#ifdef DYNGRAPH_FAULT_INJECTION
DG_API void dg_debug_fail_device_alloc(long after) { (void)after; }
DG_API long dg_debug_device_allocs(void) { return 0; }
#endif
#else /* the device, through OpenCL */

/* =========================================================================
   The device: OpenCL set-up and the device state (sections 10-11)   >>device
   =========================================================================
   Everything OpenCL lives in dg__dev, made by the first device operation. Every OpenCL call
   is checked through DG__CL, whose message names the call and the error. */
#ifndef DG_CACHE_MAX_BYTES
#define DG_CACHE_MAX_BYTES (64u << 20)   /* larger program binaries are not cached */
#endif
#define DG__STAGE_BYTES (16u << 20)      /* pinned staging buffer of the sync */

/* >>registry ---- the modules and their kernels -------------------------------------------
   A module is one capability: a section of this file (tagged >>name), its kernel file, its
   device state (made on first use, see dg__module_state) and its test program. Its program is
   built when one of its kernels is first asked for. Adding one: a line in DG__MODULES, its
   kernels in DG__KERNELS (manual section 16). Every program starts with DG__COMMON_FILES. */
#define DG__COMMON_FILES "kernels/00_shared.h kernels/10_adjacency.cl"
#define DG__MODULES(X) \
    X(CORE,  "kernels/20_sync.cl kernels/30_primitives.cl") \
    X(UPDATE, "kernels/25_update.cl") \
    X(SORT,  "kernels/35_sort.cl") \
    X(BFS,   "kernels/40_bfs.cl") \
    X(SSSP,  "kernels/50_sssp.cl") \
    X(REACH, "kernels/60_reach.cl") \
    X(GRAPH, "kernels/70_graph.cl") \
    X(SCC,   "kernels/72_scc.cl") \
    X(TRI,   "kernels/75_triangles.cl") \
    X(RESULT, "kernels/80_result.cl")
#define DG__KERNELS(X) \
    X(CORE,  SCATTER,          dg_scatter) \
    X(CORE,  FILL_INT,         dg_fill_int) \
    X(CORE,  GATHER_PAGES,     dg_gather_pages) \
    X(CORE,  SCAN_BLOCKS,      dg_scan_blocks) \
    X(CORE,  SCAN_ADD,         dg_scan_add) \
    X(CORE,  SCAN_SMALL,       dg_scan_small) \
    X(CORE,  SCAN_POS_BLOCKS,  dg_scan_pos_blocks) \
    X(CORE,  SCAN_POS_ADD,     dg_scan_pos_add) \
    X(CORE,  SCAN_WRAPPED,     dg_scan_wrapped) \
    X(CORE,  FRONTIER_DEGREES, dg_frontier_degrees) \
    X(CORE,  COMPACT,          dg_compact) \
    X(CORE,  DEGREES,          dg_degrees) \
    X(CORE,  EC_FILL,          dg_ec_fill) \
    X(CORE,  PATH_WALK,        dg_path_walk) \
    X(CORE,  LIVE_FLAGS,       dg_live_flags) \
    X(CORE,  LIVE_IDS,         dg_live_ids) \
    X(UPDATE, UP_ARCS,         dg_up_arcs) \
    X(UPDATE, UP_SRCKEYS,      dg_up_srckeys) \
    X(UPDATE, UP_SORT_SMALL,   dg_up_sort_small) \
    X(UPDATE, UP_UNIQUE,       dg_up_unique) \
    X(UPDATE, UP_GATHER,       dg_up_gather) \
    X(UPDATE, UP_CHUNKS,       dg_up_chunks) \
    X(UPDATE, UP_FIND,         dg_up_find) \
    X(UPDATE, UP_PICK,         dg_up_pick) \
    X(UPDATE, UP_SELECT,       dg_up_select) \
    X(UPDATE, UP_KEYS,         dg_up_keys) \
    X(UPDATE, UP_PERMUTE,      dg_up_permute) \
    X(UPDATE, UP_PLAN,         dg_up_plan) \
    X(UPDATE, UP_INSERT,       dg_up_insert) \
    X(UPDATE, UP_DEGS,         dg_up_degs) \
    X(UPDATE, UP_MOVE,         dg_up_move) \
    X(UPDATE, UP_LA_INIT,      dg_up_la_init) \
    X(UPDATE, UP_LA_GROW,      dg_up_la_grow) \
    X(UPDATE, UP_ROOM_COUNT,   dg_up_room_count) \
    X(UPDATE, UP_ROOM_PLAN,    dg_up_room_plan) \
    X(UPDATE, UP_ROOM_WRITE,   dg_up_room_write) \
    X(UPDATE, UP_RM_MARK,      dg_up_rm_mark) \
    X(UPDATE, UP_RM_PAIR,      dg_up_rm_pair) \
    X(UPDATE, UP_RM_MOVE,      dg_up_rm_move) \
    X(UPDATE, UP_RM_TRIM,      dg_up_rm_trim) \
    X(UPDATE, UP_RM_SHRINK,    dg_up_rm_shrink) \
    X(SORT,  SORT_COUNT,       dg_sort_count) \
    X(SORT,  SORT_HIST,        dg_sort_hist) \
    X(SORT,  SORT_SCATTER,     dg_sort_scatter) \
    X(SORT,  SORT_SWEEP,       dg_sort_sweep) \
    X(SORT,  SORT_TILE,        dg_sort_tile) \
    X(BFS,   BFS_INIT,         dg_bfs_init) \
    X(BFS,   BFS_UNMARK,       dg_bfs_unmark) \
    X(BFS,   BFS_TD,           dg_bfs_td) \
    X(BFS,   BFS_TD_FLAT,      dg_bfs_td_flat) \
    X(BFS,   BFS_TD_HUBS,      dg_bfs_td_hubs) \
    X(BFS,   BFS_DEEP,         dg_bfs_deep) \
    X(BFS,   BFS_BU,           dg_bfs_bu) \
    X(BFS,   BFS_BU_FLAT,      dg_bfs_bu_flat) \
    X(BFS,   BFS_Q2BM,         dg_bfs_queue_to_bitmap) \
    X(BFS,   BFS_OUTBOX,       dg_bfs_outbox) \
    X(BFS,   BFS_INBOX,        dg_bfs_inbox) \
    X(BFS,   BFS_INBOX_BITS,   dg_bfs_inbox_bits) \
    X(BFS,   BFS_OR_WORDS,     dg_bfs_or_words) \
    X(BFS,   BFS_COUNT,        dg_bfs_count) \
    X(BFS,   MASK_EXPAND,      dg_bfs_mask_expand) \
    X(BFS,   MASK_VISIT,       dg_bfs_mask_visit) \
    X(BFS,   EC_LEVEL,         dg_ec_level) \
    X(BFS,   QUEUE_ADVANCE,    dg_bfs_queue_advance) \
    X(BFS,   QUEUE_FILTER,     dg_bfs_queue_filter) \
    X(BFS,   PARENTS,          dg_bfs_parents) \
    X(SSSP,  SSSP_WEIGHTS,     dg_sssp_weights) \
    X(SSSP,  SSSP_SOURCE,      dg_sssp_source) \
    X(SSSP,  SSSP_CUT,         dg_sssp_cut) \
    X(SSSP,  SSSP_BF,          dg_sssp_bf) \
    X(SSSP,  SSSP_BF_NEG,      dg_sssp_bf_neg) \
    X(SSSP,  SSSP_PRED,        dg_sssp_pred) \
    X(SSSP,  SSSP_FR_ADVANCE,  dg_sssp_frontier_advance) \
    X(SSSP,  SSSP_FR_FILTER,   dg_sssp_frontier_filter) \
    X(SSSP,  SSSP_FR_RESET,    dg_sssp_frontier_reset) \
    X(SSSP,  SSSP_NF,          dg_sssp_nf) \
    X(SSSP,  SSSP_NF_INIT,     dg_sssp_nf_init) \
    X(SSSP,  SSSP_NF_DEEP,     dg_sssp_nf_deep) \
    X(SSSP,  SSSP_NF_FLAT,     dg_sssp_nf_flat) \
    X(REACH, REACH_LABELS,     dg_reach_labels) \
    X(REACH, REACH_INIT,       dg_reach_init) \
    X(REACH, REACH_EXPAND,     dg_reach_expand) \
    X(REACH, REACH_EXPAND_SIG, dg_reach_expand_sig) \
    X(REACH, REACH_EXPAND_DAG, dg_reach_expand_dag) \
    X(REACH, REACH_EXPAND_DAG_SIG, dg_reach_expand_dag_sig) \
    X(REACH, REACH_FINISH,     dg_reach_finish) \
    X(REACH, REACH_FOREST,     dg_reach_forest) \
    X(GRAPH, CC_INIT,          dg_cc_init) \
    X(GRAPH, CC_HOOK,          dg_cc_hook) \
    X(GRAPH, CC_JUMP,          dg_cc_jump) \
    X(GRAPH, CC_PAIRS,         dg_cc_pairs) \
    X(GRAPH, CC_PAIRS_LOCAL,   dg_cc_pairs_local) \
    X(GRAPH, CC_MARK,          dg_cc_mark) \
    X(GRAPH, CC_RESET,         dg_cc_reset) \
    X(GRAPH, CC_RELINK,        dg_cc_relink_advance) \
    X(GRAPH, CC_CUT_SEED,      dg_cc_cut_seed) \
    X(GRAPH, CC_CUT_ROUND,     dg_cc_cut_round) \
    X(GRAPH, CC_CUT_CHECK,     dg_cc_cut_check) \
    X(GRAPH, CC_SAMPLE,        dg_cc_sample) \
    X(GRAPH, CC_GATHER,        dg_cc_gather) \
    X(GRAPH, ROOTS_COUNT,      dg_roots_count) \
    X(GRAPH, PR_INIT,          dg_pr_init) \
    X(GRAPH, PR_CONTRIB,       dg_pr_contrib) \
    X(GRAPH, PR_SUM,           dg_pr_sum) \
    X(GRAPH, PR_PULL,          dg_pr_pull) \
    X(GRAPH, PR_HUBS,          dg_pr_hubs) \
    X(GRAPH, PR_PULL_HUBS,     dg_pr_pull_hubs) \
    X(SCC,   SCC_INIT,         dg_scc_init) \
    X(SCC,   SCC_SWEEP,        dg_scc_sweep) \
    X(SCC,   SCC_STEP,         dg_scc_step) \
    X(SCC,   SCC_PIVOT,        dg_scc_pivot) \
    X(SCC,   SCC_NEXT,         dg_scc_next) \
    X(TRI,   TC_COUNT,         dg_tc_count) \
    X(TRI,   TC_ORIENT,        dg_tc_orient) \
    X(TRI,   TC_COUNT_HEAVY,   dg_tc_count_heavy) \
    X(TRI,   ISECT_LIGHT,      dg_isect_light) \
    X(TRI,   ISECT_HEAVY,      dg_isect_heavy) \
    X(RESULT, RES_PUSH,        dg_res_push) \
    X(RESULT, RES_PROPAGATE,   dg_res_propagate) \
    X(RESULT, RES_PUSH_LOCAL,  dg_res_push_local) \
    X(RESULT, RES_REPAIR,      dg_res_repair) \
    X(RESULT, RES_SEED,        dg_res_seed) \
    X(RESULT, RES_CHECK,       dg_res_check) \
    X(RESULT, RES_RESET,       dg_res_reset) \
    X(RESULT, RES_FROM_LEVELS, dg_res_from_levels) \
    X(RESULT, RES_TO_LEVELS,   dg_res_to_levels)

#define DG__MODULE_ENUM(id, files) DG__MOD_##id,
#define DG__MODULE_FILES(id, files) files,
#define DG__KERNEL_ENUM(mod, id, name) DG__K_##id,
#define DG__KERNEL_INFO(mod, id, name) { DG__MOD_##mod, #name },
enum { DG__MODULES(DG__MODULE_ENUM) DG__MOD_COUNT };
enum { DG__KERNELS(DG__KERNEL_ENUM) DG__K_COUNT };
static const char *const dg__module_files[DG__MOD_COUNT] = { DG__MODULES(DG__MODULE_FILES) };
static const struct dg__kinfo { int module; const char *name; } dg__kinfo[DG__K_COUNT] = {
    DG__KERNELS(DG__KERNEL_INFO)
};
/* Programs per module: variant 0 reads the pages, variant 1 (-DDG_CSR) a plain CSR copy of
   the graph (dg_bfs_options.csr_copy, for benchmarks). */
#define DG__VARIANTS 2

/* A device buffer that grows: capacity in bytes. */
typedef struct dg__buf { cl_mem m; size_t cap; } dg__buf;

/* A module's device state: made zeroed on its first use, freed with the device. Its buffers
   are the dg__buf fields of one member struct `b` of the state, so that they are freed and
   counted without a list kept by hand: DG__STATE(g, DG__MOD_BFS, dg__bfs_state). */
typedef struct dg__module { void *state; size_t buf_off, nbufs; } dg__module;
#define DG__STATE(g, mod, T) ((T *)dg__module_state((g), (mod), sizeof(T), offsetof(T, b), \
                                                   sizeof(((T *)0)->b) / sizeof(dg__buf)))

/* The core module's device state (>>prim): scan scratch, the filter's flags, the edge chunks
   and the CSR copy. Made with the device. */
typedef struct dg__core_state {
    struct {
        dg__buf scan_sums[8], scan_tmp, total, flags[2];
        dg__buf deg, sv;                  /* edge chunks: degree scan, chunk -> vertex */
        dg__buf csr_row[2], csr_col[2];   /* the CSR copy (variant 1), per store */
        dg__buf gather, glist;            /* stale pages read back (>>mirror, dg__fresh_read) */
        dg__buf path;                     /* dg__path: a path's length and vertices */
        dg__buf live;                     /* every live vertex (in == NULL of the primitives) */
        dg__buf part;                     /* dg_reduce: the work-groups' partial results */
    } b;
    uint64_t ec_gen, csr_gen, live_gen;   /* the mirror generation they were built for */
    uint32_t ec_mec;
    cl_ulong ec_total;                    /* the edge chunks' arcs (a kernel's ulong total) */
    size_t ec_chunks, live_n;
    int ec_valid, ec_pos64, csr_valid, live_valid;
} dg__core_state;

/* The mirror of one store. */
typedef struct dg__dstore { dg__buf pool, wpool, idx, latab; } dg__dstore;

/* One run of chunks in the staging buffer bound for one destination buffer. */
typedef struct dg__stgroup { cl_mem dst; size_t first, n; } dg__stgroup;
typedef struct dg__hostblk { cl_mem m; unsigned char *p; size_t n; } dg__hostblk;   /* dg_host_alloc */

/* Several devices (>>shard): one device's own page numbers for one store. Its mirror is a
   whole small graph of its shard's lists, its pages numbered 0 .. hw-1 in the order it got them. */
typedef struct dg__lpages {
    int32_t *glob;        /* local page l holds the host's page glob[l] (-1: free); cap of them */
    int32_t *lfree;       /* local pages free to hand out (nfree of them) */
    int32_t *pend;        /* local pages this sync frees: their index entries are sent as free, and
                             they are handed out only after it succeeded (npend of them) */
    uint32_t hw, cap, nfree, npend;
} dg__lpages;

typedef struct dg__dev {
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;
    int profiling;                /* the queue has CL_QUEUE_PROFILING_ENABLE */
    int pocl;                     /* the platform is PoCL (it caches compiled kernels itself) */
    int nvidia;                   /* NVIDIA's platform: kernels get -DDG_NV_PTX (inline PTX), and
                                     -DDG_NV_SM70 from compute capability 7 on (ld.acquire) */
    int nv_sm70;
    uint32_t wg;                  /* work-group size of the load-balanced kernels */
    size_t groups;                /* persistent work-groups (compute units x 8) */
    cl_ulong max_alloc, global_mem;
    int cpu;                      /* a CPU device (it shares the host's memory) */
    size_t cu;                    /* compute units */
    int deep_off;                 /* a deep search found its groups not all resident: the
                                     levels go one launch each from then on (>>bfs) */
    size_t reads_direct;          /* counts for the tests: reads into dg_host_alloc blocks, */
    size_t bfs_queues;            /* queues of BFS levels whose direction the device decides, */
    size_t events;                /* launches that asked for a profiling event */
    char name[256];
    char key[1024];               /* what the binary cache keys on besides source and options */
    cl_program prog[DG__VARIANTS][DG__MOD_COUNT];   /* built on first use (dg__program) */
    cl_kernel kern[DG__VARIANTS][DG__K_COUNT];       /* made on first use (dg__kernel) */
    int pos64;                    /* the programs read pool positions as 64-bit (DG_POS64) */
    uint32_t prog_gen;            /* incremented when the programs are dropped (dg__pos_width) */
    dg__module mod[DG__MOD_COUNT];                  /* the modules' device state */
    size_t programs_built;        /* programs this graph compiled or loaded from the disk cache */
    size_t batch_dev;             /* the last device batch's arcs */
    size_t batch_room;            /* and the pages it made room on */
    size_t batch_room_host;       /* of which the host laid out (large lists; lists outgrowing a page) */
    size_t batch_dir_blocks;      /* directory blocks it left to the device (dg__dir_take) */
    size_t dir_blocks_read;       /* directory blocks read back since the device was made */
    int ctx_listed;               /* ctx is in the process-wide context table (a user there) */
    /* the mirror */
    dg__dstore st[2];
    dg__buf dir;
    int id;                       /* several devices (>>shard): its index in g->devs; the ids it */
    int32_t lo, hi;               /* holds [lo, hi) (set by each sync); its own page numbers; the */
    dg__lpages lp[2];             /* directory's bytes it has set to -1 (foreign vertices read as */
    size_t dir_filled;            /* removed ones) */
    int uploaded;                 /* the mirror holds the graph (after the first full sync) */
    uint64_t gen;                 /* incremented by every sync that sent something */
    /* staging: pinned host memory, mapped for good, and its device twin */
    cl_mem pin, stage;
    dg__hostblk *hblk;            /* dg_host_alloc's blocks */
    size_t nhblk, hblk_cap;
    unsigned char *pin_ptr;
    size_t st_bytes, st_used;     /* data bytes staged so far */
    uint64_t *desc;               /* chunk descriptors of the staged data (src, dst, len, 0) */
    size_t ndesc, desc_cap;
    dg__stgroup grp[16];
    size_t ngrp;
    size_t sync_bytes, sync_pages;
    cl_event ev_first, ev_last;   /* the first and last command of a timed run (profiling) */
    int timed;                    /* launches keep events: a caller reports device time (with
                                     ksum, or set by dg_reach_ex and dg_result_update for their
                                     stats); an event costs ~7 us of host time a launch on
                                     NVIDIA's OpenCL (5.3 -> 12.3 us, bench/NOTES.md) */
    cl_event *evs;                /* with ksum: every kernel of the run, for their summed time */
    size_t nevs, evs_cap;
    int ksum, evs_lost;           /* evs_lost: an event could not be kept (kernel_ms unknown) */
    size_t bytes;                 /* device bytes held */
    /* statistics */
    size_t syncs, last_sync_bytes, last_sync_pages;
    uint64_t upload_bytes;
} dg__dev;

static const char *dg__cl_error_name(cl_int e) {
    switch (e) {
#define DG__E(x) case x: return #x;
    DG__E(CL_SUCCESS) DG__E(CL_DEVICE_NOT_FOUND) DG__E(CL_DEVICE_NOT_AVAILABLE)
    DG__E(CL_COMPILER_NOT_AVAILABLE) DG__E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    DG__E(CL_OUT_OF_RESOURCES) DG__E(CL_OUT_OF_HOST_MEMORY) DG__E(CL_PROFILING_INFO_NOT_AVAILABLE)
    DG__E(CL_MEM_COPY_OVERLAP) DG__E(CL_BUILD_PROGRAM_FAILURE) DG__E(CL_MAP_FAILURE)
    DG__E(CL_INVALID_VALUE) DG__E(CL_INVALID_DEVICE_TYPE) DG__E(CL_INVALID_PLATFORM)
    DG__E(CL_INVALID_DEVICE) DG__E(CL_INVALID_CONTEXT) DG__E(CL_INVALID_QUEUE_PROPERTIES)
    DG__E(CL_INVALID_COMMAND_QUEUE) DG__E(CL_INVALID_HOST_PTR) DG__E(CL_INVALID_MEM_OBJECT)
    DG__E(CL_INVALID_BINARY) DG__E(CL_INVALID_BUILD_OPTIONS) DG__E(CL_INVALID_PROGRAM)
    DG__E(CL_INVALID_PROGRAM_EXECUTABLE) DG__E(CL_INVALID_KERNEL_NAME)
    DG__E(CL_INVALID_KERNEL_DEFINITION) DG__E(CL_INVALID_KERNEL) DG__E(CL_INVALID_ARG_INDEX)
    DG__E(CL_INVALID_ARG_VALUE) DG__E(CL_INVALID_ARG_SIZE) DG__E(CL_INVALID_KERNEL_ARGS)
    DG__E(CL_INVALID_WORK_DIMENSION) DG__E(CL_INVALID_WORK_GROUP_SIZE)
    DG__E(CL_INVALID_WORK_ITEM_SIZE) DG__E(CL_INVALID_GLOBAL_OFFSET) DG__E(CL_INVALID_EVENT_WAIT_LIST)
    DG__E(CL_INVALID_EVENT) DG__E(CL_INVALID_OPERATION) DG__E(CL_INVALID_BUFFER_SIZE)
    DG__E(CL_INVALID_GLOBAL_WORK_SIZE) DG__E(CL_INVALID_PROPERTY)
#undef DG__E
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "an unknown OpenCL error";
    }
}
/* Records a failed OpenCL call: device memory errors give DG_ERR_DEVICE_MEMORY. */
static dg_status dg__clfail(dg_graph *g, cl_int e, const char *call) {
    dg_status s = (e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_RESOURCES ||
                   e == CL_INVALID_BUFFER_SIZE) ? DG_ERR_DEVICE_MEMORY : DG_ERR_OPENCL;
    return dg__fail(g, s, "%s failed: %s (%d)", call, dg__cl_error_name(e), (int)e);
}
/* Every device buffer of the library is made here (the pinned staging buffer with flags
   CL_MEM_ALLOC_HOST_PTR). Built with DYNGRAPH_FAULT_INJECTION, dg_debug_fail_device_alloc
   makes a chosen one fail as a full device would (tests of the DG_ERR_DEVICE_MEMORY paths). */
#ifdef DYNGRAPH_FAULT_INJECTION
static long dg__fault_countdown = -1, dg__fault_allocs;
DG_API void dg_debug_fail_device_alloc(long after) { dg__fault_countdown = after; dg__fault_allocs = 0; }
DG_API long dg_debug_device_allocs(void) { return dg__fault_allocs; }
#endif
static dg_status dg__cl_buffer(dg_graph *g, cl_mem_flags flags, size_t bytes, const char *what, cl_mem *out) {
    cl_int e = CL_SUCCESS;
    char call[80];
#ifdef DYNGRAPH_FAULT_INJECTION
    dg__fault_allocs++;
    if (dg__fault_countdown >= 0 && dg__fault_countdown-- == 0) {
        *out = NULL;
        e = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    } else
#endif
    *out = clCreateBuffer(g->dev->ctx, flags, bytes, NULL, &e);
    if (e == CL_SUCCESS) return DG_OK;
    *out = NULL;
    snprintf(call, sizeof call, "clCreateBuffer (%s, %zu bytes)", what, bytes);
    return dg__clfail(g, e, call);
}
/* In functions with `dg_status st` and a `done:` label. */
#define DG__CL(call) do { cl_int e_ = (call); \
    if (e_ != CL_SUCCESS) { st = dg__clfail(g, e_, #call); goto done; } } while (0)
#define DG__ARG(k, i, v) do { if ((st = dg__arg(g, (k), (i), sizeof(v), &(v))) != DG_OK) goto done; } while (0)

/* One kernel argument for dg__args: DG__A(v) (its size and address), dg__adj(in_edges, csr)
   (the five arguments that describe a store: DG_ADJ_ARGS in kernels/10_adjacency.cl), and
   DG__END after the last. */
typedef struct dg__karg { size_t size; const void *value; int adj; } dg__karg;
static dg__karg dg__karg_of(size_t size, const void *value, int adj) {
    dg__karg a;
    a.size = size;
    a.value = value;
    a.adj = adj;
    return a;
}
#define DG__A(v) dg__karg_of(sizeof(v), &(v), 0)
#define DG__END dg__karg_of(0, NULL, 0)
static dg__karg dg__adj(int in_edges, int csr) { return dg__karg_of(0, NULL, 1 + (in_edges != 0) + 2 * (csr != 0)); }
/* clSetKernelArg, naming the kernel and the argument when it fails. */
static dg_status dg__arg(dg_graph *g, cl_kernel k, int i, size_t size, const void *v) {
    char name[64] = "?", call[128];
    cl_int e = clSetKernelArg(k, (cl_uint)i, size, v);
    if (e == CL_SUCCESS) return DG_OK;
    clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    name[sizeof name - 1] = 0;
    snprintf(call, sizeof call, "clSetKernelArg(%s, argument %d)", name, i);
    return dg__clfail(g, e, call);
}

/* Sets the DG_ADJ_ARGS (5 arguments from index i) of the out-store, or of the in-store when
   in_edges (an undirected graph is its own reverse); csr: the CSR copy instead. */
static dg_status dg__adj_args(dg_graph *g, cl_kernel k, cl_uint i, int in_edges, int csr) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    int si = in_edges && g->nstores == 2 ? 1 : 0;
    cl_uint dso = csr ? 0 : 2 * (cl_uint)si;
    cl_mem dir = csr ? cs->b.csr_row[si].m : d->dir.m, pool = csr ? cs->b.csr_col[si].m : d->st[si].pool.m;
    cl_mem idx = csr ? pool : d->st[si].idx.m, lat = csr ? pool : d->st[si].latab.m;
    DG__ARG(k, i, dir); DG__ARG(k, i + 1, dso); DG__ARG(k, i + 2, pool);
    DG__ARG(k, i + 3, idx); DG__ARG(k, i + 4, lat);
done:
    return st;
}

/* Sets kernel k's arguments in order, from argument 0: DG__A(x) ..., dg__adj(...) ..., DG__END. */
static dg_status dg__vargs(dg_graph *g, cl_kernel k, va_list ap) {
    dg_status st = DG_OK;
    cl_uint i = 0;
    for (;;) {
        dg__karg a = va_arg(ap, dg__karg);
        if (a.adj) {
            if ((st = dg__adj_args(g, k, i, (a.adj - 1) & 1, (a.adj - 1) >> 1)) != DG_OK) break;
            i += 5;
        } else if (a.value) {
            if ((st = dg__arg(g, k, (int)i, a.size, a.value)) != DG_OK) break;
            i++;
        } else {
            break;
        }
    }
    return st;
}
static dg_status dg__args(dg_graph *g, cl_kernel k, ...) {
    dg_status st;
    va_list ap;
    va_start(ap, k);
    st = dg__vargs(g, k, ap);
    va_end(ap);
    return st;
}

static void dg__log(dg_graph *g, dg_log_level level, const char *msg) {
    if (g->desc.logger.func) g->desc.logger.func(level, msg, g->desc.logger.user_data);
}

/* (Re)creates b with at least `bytes` (growing by half at least). Contents are lost. */
static dg_status dg__buf_fit(dg_graph *g, dg__buf *b, size_t bytes) {
    dg__dev *d = g->dev;
    dg_status st;
    cl_mem m;
    size_t cap;
    if (bytes == 0) bytes = 4;
    if (b->m && b->cap >= bytes) return DG_OK;
    cap = b->cap + b->cap / 2 > bytes ? b->cap + b->cap / 2 : bytes;
    cap = (cap + 255) & ~(size_t)255;
    if (cap > d->max_alloc) cap = bytes;
    if (bytes > d->max_alloc)
        return dg__fail(g, DG_ERR_DEVICE_MEMORY, "a device buffer of %zu bytes is over the device's limit of %llu",
                        bytes, (unsigned long long)d->max_alloc);
    if (b->m) { clReleaseMemObject(b->m); d->bytes -= b->cap; b->m = NULL; b->cap = 0; }
    if ((st = dg__cl_buffer(g, CL_MEM_READ_WRITE, cap, "device buffer", &m)) != DG_OK) return st;
    b->m = m; b->cap = cap; d->bytes += cap;
    return DG_OK;
}
/* Grows b to hold `bytes`, keeping its first `keep` bytes (a device-to-device copy): by a
   quarter, or to the device's largest buffer where a quarter would pass it and bytes do not. */
static dg_status dg__buf_grow(dg_graph *g, dg__buf *b, size_t bytes, size_t keep) {
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    dg__buf nb;
    size_t want = b->cap + b->cap / 4 > bytes ? b->cap + b->cap / 4 : bytes;
    if (b->m && b->cap >= bytes) return DG_OK;
    if (want > d->max_alloc && bytes <= d->max_alloc) want = (size_t)d->max_alloc;
    nb.m = NULL; nb.cap = 0;
    DG__TRY(dg__buf_fit(g, &nb, want));
    if (b->m && keep) DG__CL(clEnqueueCopyBuffer(d->queue, b->m, nb.m, 0, 0, keep, 0, NULL, NULL));
    if (b->m) { clReleaseMemObject(b->m); d->bytes -= b->cap; }
    *b = nb;
    return DG_OK;
done:
    if (nb.m) { clReleaseMemObject(nb.m); d->bytes -= nb.cap; }
    return st;
}
static void dg__buf_free(dg__dev *d, dg__buf *b) {
    if (b->m) { clReleaseMemObject(b->m); d->bytes -= b->cap; }
    b->m = NULL; b->cap = 0;
}
/* Sets n bytes of m from off to v. */
static dg_status dg__fill_bytes(dg_graph *g, cl_mem m, unsigned char v, size_t off, size_t n) {
    while (n) {   /* at most 1 GiB per fill */
        size_t k = n < ((size_t)1 << 30) ? n : (size_t)1 << 30;
        cl_int e = clEnqueueFillBuffer(g->dev->queue, m, &v, 1, off, k, 0, NULL, NULL);
        if (e != CL_SUCCESS) return dg__clfail(g, e, "clEnqueueFillBuffer");
        off += k;
        n -= k;
    }
    return DG_OK;
}

/* ---- choosing a device ---- */
static int dg__lower(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }
static int dg__contains(const char *hay, const char *needle) {
    size_t i, j;
    for (i = 0; hay[i]; i++) {
        for (j = 0; needle[j] && hay[i + j] && dg__lower(hay[i + j]) == dg__lower(needle[j]); j++) {}
        if (!needle[j]) return 1;
    }
    return !needle[0];
}
static int dg__equal_nocase(const char *a, const char *b) {
    while (*a && dg__lower(*a) == dg__lower(*b)) { a++; b++; }
    return *a == *b;
}

/* The nth (from 0) available device that dg_desc.device / DYNGRAPH_DEVICE names; without a
   wish, the GPUs first, then any device. */
static dg_status dg__pick_device(dg_graph *g, int nth, cl_platform_id *out_plat, cl_device_id *out_dev) {
    cl_platform_id plats[16];
    cl_device_id devs[64];
    cl_uint np = 0, nd, i, j;
    int found = 0;
    const char *want = g->desc.device ? g->desc.device : getenv("DYNGRAPH_DEVICE");
    char seen[1024] = "", name[512], pname[256], dname[256];
    int pass;
    cl_int e = clGetPlatformIDs(16, plats, &np);
    if (want && !*want) want = NULL;
    if (e != CL_SUCCESS || np == 0)
        return dg__fail(g, DG_ERR_NO_DEVICE, "no OpenCL platform found (clGetPlatformIDs: %s); install an OpenCL driver, e.g. pocl-opencl-icd",
                        dg__cl_error_name(e));
    for (pass = 0; pass < 2; pass++) {       /* without a wish: a GPU first, then anything */
        for (i = 0; i < np && i < 16; i++) {
            if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS) continue;
            if (clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL) != CL_SUCCESS) pname[0] = 0;
            pname[sizeof pname - 1] = 0;
            for (j = 0; j < nd && j < 64; j++) {
                cl_device_type type = 0;
                cl_bool avail = CL_FALSE;
                int ok;
                clGetDeviceInfo(devs[j], CL_DEVICE_TYPE, sizeof type, &type, NULL);
                clGetDeviceInfo(devs[j], CL_DEVICE_AVAILABLE, sizeof avail, &avail, NULL);
                if (clGetDeviceInfo(devs[j], CL_DEVICE_NAME, sizeof dname, dname, NULL) != CL_SUCCESS) dname[0] = 0;
                dname[sizeof dname - 1] = 0;
                snprintf(name, sizeof name, "%s %s", pname, dname);
                if (pass == 0 && strlen(seen) + strlen(name) + 8 < sizeof seen) {
                    if (seen[0]) strcat(seen, "; ");
                    strcat(seen, name);
                }
                if (!avail) continue;
                if (want) ok = dg__equal_nocase(want, "gpu") ? (type & CL_DEVICE_TYPE_GPU) != 0 :
                               dg__equal_nocase(want, "cpu") ? (type & CL_DEVICE_TYPE_CPU) != 0 :
                               dg__contains(name, want);
                else ok = pass == 1 ? !(type & CL_DEVICE_TYPE_GPU) : (type & CL_DEVICE_TYPE_GPU) != 0;
                if (ok && found++ == nth) { *out_plat = plats[i]; *out_dev = devs[j]; return DG_OK; }
            }
        }
        if (want) break;
    }
    if (nth > 0)
        return dg__fail(g, DG_ERR_NO_DEVICE, "%d OpenCL devices wanted, %d found (%s)", nth + 1, found,
                        seen[0] ? seen : "none");
    if (want)
        return dg__fail(g, DG_ERR_NO_DEVICE, "no OpenCL device matches \"%s\" (%s); devices found: %s",
                        want, g->desc.device ? "dg_desc.device" : "DYNGRAPH_DEVICE", seen[0] ? seen : "none");
    return dg__fail(g, DG_ERR_NO_DEVICE, "no available OpenCL device (found: %s)", seen[0] ? seen : "none");
}

/* >>programs ---- programs: sources, the process-wide cache, the disk cache ----------------
   A program is built from pieces of dg__kernel_source (one per kernels/ file, found by their
   #line markers). Built programs are kept process-wide, keyed by (context, device, options,
   source), so a second graph on the same device builds nothing (dg_stats.programs_built
   says what a graph built). Graphs without a desc context share the library's context per
   device. Entries of a caller's context go when the last graph using it is destroyed (so the
   caller can release it); the library's contexts and their programs stay until dg_cache_clear
   or the end of the process. Fixed tables, no allocation; a spin lock (GCC/clang or MSVC
   atomics) keeps them consistent between threads. A full table builds and keeps programs per
   graph, as without a cache. */
#define DG__CACHE_PROGRAMS 64
#define DG__CACHE_CONTEXTS 16
typedef struct dg__cached_program { cl_context ctx; cl_device_id device; uint64_t key; cl_program prog; } dg__cached_program;
typedef struct dg__shared_context { cl_context ctx; cl_device_id device; int owned, users; } dg__shared_context;
static struct {
    volatile long lock;
    dg__cached_program prog[DG__CACHE_PROGRAMS];
    dg__shared_context ctx[DG__CACHE_CONTEXTS];
} dg__cache;

static void dg__cache_lock(void) {
#if defined(_MSC_VER)
    while (_InterlockedExchange(&dg__cache.lock, 1)) {}
#elif defined(__GNUC__)
    while (__sync_lock_test_and_set(&dg__cache.lock, 1)) {}
#endif
}
static void dg__cache_unlock(void) {
#if defined(_MSC_VER)
    _InterlockedExchange(&dg__cache.lock, 0);
#elif defined(__GNUC__)
    __sync_lock_release(&dg__cache.lock);
#endif
}

/* Releases the cached programs of ctx (the lock held). */
static void dg__cache_drop_programs(cl_context ctx) {
    int i;
    for (i = 0; i < DG__CACHE_PROGRAMS; i++) {
        dg__cached_program *c = &dg__cache.prog[i];
        if (c->prog && (c->ctx == ctx || !ctx)) {
            clReleaseProgram(c->prog);
            memset(c, 0, sizeof *c);
        }
    }
}

DG_API void dg_cache_clear(void) {
    int i;
    dg__cache_lock();
    for (i = 0; i < DG__CACHE_CONTEXTS; i++) {
        dg__shared_context *c = &dg__cache.ctx[i];
        if (!c->ctx || c->users) continue;
        dg__cache_drop_programs(c->ctx);
        if (c->owned) clReleaseContext(c->ctx);
        memset(c, 0, sizeof *c);
    }
    dg__cache_unlock();
}

/* The context a graph uses: the caller's (`given`, retained by the caller's graph already),
   registered so that its cached programs go with its last graph; else the library's context
   for `device`, shared by the graphs that use it (made by the first). The graph holds one
   reference to *out and counts as a user. (Made under the lock: it happens once per device.) */
static dg_status dg__context_acquire(dg_graph *g, cl_platform_id plat, cl_device_id device,
                                     cl_context given, cl_context *out) {
    dg__dev *d = g->dev;
    dg__shared_context *c = NULL, *room = NULL;
    cl_context ctx = given;
    cl_int e = CL_SUCCESS;
    int i, made = 0;
    dg__cache_lock();
    for (i = 0; i < DG__CACHE_CONTEXTS && !c; i++) {
        dg__shared_context *x = &dg__cache.ctx[i];
        if (x->ctx && x->device == device && (given ? x->ctx == given : x->owned)) c = x;
        else if (!x->ctx && !room) room = x;
    }
    if (c) {
        ctx = c->ctx;
    } else if (!given) {
        cl_context_properties cp[3];
        cp[0] = CL_CONTEXT_PLATFORM;
        cp[1] = (cl_context_properties)plat;
        cp[2] = 0;
        ctx = clCreateContext(cp, 1, &device, NULL, NULL, &e);
        made = 1;          /* its first reference is the graph's */
    }
    if (e == CL_SUCCESS && !c && room) {   /* (a full table: the graph keeps its own context) */
        c = room;
        c->ctx = ctx;
        c->device = device;
        c->owned = !given;
        if (!given) clRetainContext(ctx);  /* the table's reference */
    }
    if (c) c->users++;
    d->ctx_listed = c != NULL;
    dg__cache_unlock();
    if (e != CL_SUCCESS) return dg__clfail(g, e, "clCreateContext");
    if (!given && !made) clRetainContext(ctx);   /* the graph's reference */
    *out = ctx;
    return DG_OK;
}
/* The graph no longer uses ctx: a caller's context leaves the tables with its last graph. */
static void dg__context_release(cl_context ctx) {
    int i;
    dg__cache_lock();
    for (i = 0; i < DG__CACHE_CONTEXTS; i++) {
        dg__shared_context *c = &dg__cache.ctx[i];
        if (c->ctx != ctx || c->users <= 0) continue;
        if (--c->users == 0 && !c->owned) {
            dg__cache_drop_programs(ctx);
            memset(c, 0, sizeof *c);
        }
        break;
    }
    dg__cache_unlock();
}
/* A cached program (retained for the caller), or NULL. */
static cl_program dg__cache_find(cl_context ctx, cl_device_id device, uint64_t key) {
    cl_program p = NULL;
    int i;
    dg__cache_lock();
    for (i = 0; i < DG__CACHE_PROGRAMS; i++) {
        dg__cached_program *c = &dg__cache.prog[i];
        if (c->prog && c->ctx == ctx && c->device == device && c->key == key) {
            p = c->prog;
            clRetainProgram(p);
            break;
        }
    }
    dg__cache_unlock();
    return p;
}
/* Keeps prog for later graphs, if ctx is in the context table and there is room. */
static void dg__cache_put(cl_context ctx, cl_device_id device, uint64_t key, cl_program prog) {
    int i, known = 0, slot = -1;
    dg__cache_lock();
    for (i = 0; i < DG__CACHE_CONTEXTS; i++) known |= dg__cache.ctx[i].ctx == ctx;
    for (i = 0; i < DG__CACHE_PROGRAMS && known; i++) {
        dg__cached_program *c = &dg__cache.prog[i];
        if (c->prog && c->ctx == ctx && c->device == device && c->key == key) { slot = -1; break; }
        if (!c->prog && slot < 0) slot = i;
    }
    if (known && slot >= 0) {
        dg__cached_program *c = &dg__cache.prog[slot];
        c->ctx = ctx;
        c->device = device;
        c->key = key;
        c->prog = prog;
        clRetainProgram(prog);
    }
    dg__cache_unlock();
}

/* The piece of dg__kernel_source that holds kernels/ file `file` (its #line marker on). */
static int dg__source_piece(const char *file, size_t flen, const char **out, size_t *len) {
    const char *src = dg__kernel_source, *p = src, *next;
    while ((p = strstr(p, "#line 1 \"")) != NULL) {
        if (strncmp(p + 9, file, flen) == 0 && p[9 + flen] == '"') {
            next = strstr(p + 9, "#line 1 \"kernels/");
            *out = p;
            *len = next ? (size_t)(next - p) : strlen(p);
            return 1;
        }
        p += 9;
    }
    return 0;
}
/* Appends the pieces of the space-separated files to src/len (at most cap in all). */
static size_t dg__source_files(const char *files, const char **src, size_t *len, size_t n, size_t cap) {
    while (*files && n < cap) {
        size_t k = strcspn(files, " ");
        if (k && dg__source_piece(files, k, &src[n], &len[n])) n++;
        files += k;
        files += strspn(files, " ");
    }
    return n;
}

/* ---- the binary cache on disk ---- */
/* What a program is keyed on: the device (platform, name, versions, library version), the
   options and every piece of source. */
static uint64_t dg__program_key(dg_graph *g, const char *opts, const char *const *src, const size_t *len, size_t n) {
    uint64_t h = dg__fnv(DG__FNV_SEED, g->dev->key, strlen(g->dev->key));
    size_t i;
    h = dg__fnv(h, opts, strlen(opts) + 1);
    for (i = 0; i < n; i++) h = dg__fnv(dg__fnv(h, src[i], len[i]), "", 1);
    return h;
}
/* The default cache directory, parent/dyngraph (the parent made first when make_parent):
   created private to the user (mode 0700), and used only while it is a directory of this
   user that nobody else may write (else a warning at each program build, and no cache). On systems
   without POSIX directories (Windows) the user's profile is private already. Returns 0 when
   it cannot be used. */
#if defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__))
#include <sys/stat.h>
#include <sys/time.h>   /* gettimeofday: dg__now_ms */
#include <unistd.h>
#define DG__HAVE_GETTIMEOFDAY 1
static int dg__cache_private_dir(dg_graph *g, char *dir, size_t cap, const char *parent, int make_parent) {
    struct stat st;
    if (snprintf(dir, cap, "%s", parent) >= (int)cap) return 0;
    if (make_parent) (void)mkdir(dir, 0700);
    if (snprintf(dir, cap, "%s/dyngraph", parent) >= (int)cap) return 0;
    (void)mkdir(dir, 0700);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;
    if (st.st_uid != getuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
        dg__log(g, DG_LOG_WARNING, "dyngraph: the kernel cache directory is not private to this "
                "user (another owner, or writable by others); the disk cache is off");
        return 0;
    }
    return 1;
}
#else
static int dg__cache_private_dir(dg_graph *g, char *dir, size_t cap, const char *parent, int make_parent) {
    (void)g; (void)make_parent;
    return snprintf(dir, cap, "%s/dyngraph", parent) < (int)cap;
}
#endif

/* Where a program's binary is cached: 0 nowhere (the cache is off), 1 the file `path`, 2 the
   application's dg_desc.cache_io under the key `path`. dg_desc.cache_dir or DYNGRAPH_CACHE_DIR
   is used as it is (the caller's choice); the default directory is private
   (dg__cache_private_dir). */
static int dg__cache_path(dg_graph *g, uint64_t key, char *path, size_t cap) {
    const char *dir = g->desc.cache_dir, *env = getenv("DYNGRAPH_CACHE"), *home;
    char base[1024];
    unsigned long long h = (unsigned long long)key;
    if (g->desc.binary_cache < 0) return 0;
    if (g->desc.binary_cache == 0 && env && env[0] == '0') return 0;
    if (g->desc.cache_io.read) return snprintf(path, cap, "dyngraph-%016llx", h) < (int)cap ? 2 : 0;
    if (!dir || !*dir) dir = getenv("DYNGRAPH_CACHE_DIR");
    if (g->desc.binary_cache == 0 && env && env[0] == '0') return 0;
    /* PoCL keeps its own kernel cache, and asking it for binaries compiles everything once more:
       on PoCL the cache is on only when asked for (binary_cache = 1 or DYNGRAPH_CACHE=1) */
    if (g->desc.binary_cache == 0 && !(env && env[0] == '1') && g->dev->pocl) return 0;
    if (dir && *dir) return snprintf(path, cap, "%s/dyngraph-%016llx.bin", dir, h) < (int)cap;
    if ((dir = getenv("XDG_CACHE_HOME")) != NULL && *dir) {
        if (!dg__cache_private_dir(g, base, sizeof base, dir, 0)) return 0;
    } else if ((home = getenv("HOME")) != NULL && *home) {
        char parent[1024];
        if (snprintf(parent, sizeof parent, "%s/.cache", home) >= (int)sizeof parent ||
            !dg__cache_private_dir(g, base, sizeof base, parent, 1)) return 0;
    } else {
        return 0;
    }
    return snprintf(path, cap, "%s/dyngraph-%016llx.bin", base, h) < (int)cap;
}
/* A cache entry (a file, or the bytes of dg_desc.cache_io) is a 24-byte header ("DGBIN1" + 2
   zero bytes, the binary's length and its FNV-1a hash, little-endian u64s) and the binary. An
   entry that does not check out is not handed to the driver at all (some drivers crash on
   garbage binaries). Returns the entry (the binary from byte 24 on, *len bytes) or NULL. */
static unsigned char *dg__cache_read(dg_graph *g, int where, const char *path, size_t *len) {
    const dg_cache_io *io = &g->desc.cache_io;
    unsigned char *buf = NULL;
    size_t n = 0;
    if (where == 2) {
        n = io->read(path, NULL, 0, io->user_data);
        if (n <= 24 || n > 24 + (size_t)DG_CACHE_MAX_BYTES || !(buf = (unsigned char *)dg__alloc(g, n))) return NULL;
        if (io->read(path, buf, n, io->user_data) != n) n = 0;
    } else {
        FILE *f = fopen(path, "rb");
        long sz;
        if (!f) return NULL;
        if (fseek(f, 0, SEEK_END) == 0 && (sz = ftell(f)) > 24 && (unsigned long)sz <= 24ul + DG_CACHE_MAX_BYTES &&
            fseek(f, 0, SEEK_SET) == 0 && (buf = (unsigned char *)dg__alloc(g, (size_t)sz)) != NULL)
            n = fread(buf, 1, (size_t)sz, f) == (size_t)sz ? (size_t)sz : 0;
        fclose(f);
        if (!buf) return NULL;
    }
    if (n <= 24 || memcmp(buf, "DGBIN1\0\0", 8) != 0 || dg__get_u64(buf + 8) != n - 24 ||
        dg__fnv(DG__FNV_SEED, (const char *)buf + 24, n - 24) != dg__get_u64(buf + 16)) {
        dg__free(g, buf);
        dg__log(g, DG_LOG_WARNING, "dyngraph: a damaged kernel binary in the cache was ignored");
        return NULL;
    }
    *len = n - 24;
    return buf;
}
/* Stores the program's binary as an entry: the file path (through a temporary file and rename),
   or through dg_desc.cache_io. Best effort. */
static void dg__cache_write(dg_graph *g, cl_program prog, int where, const char *path) {
    size_t len = 0;
    unsigned char *buf, *bin;
    char tmp[1100];
    FILE *f;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS ||
        len == 0 || len > DG_CACHE_MAX_BYTES) return;
    if (!(buf = (unsigned char *)dg__alloc(g, 24 + len))) return;
    bin = buf + 24;
    memcpy(buf, "DGBIN1\0\0", 8);
    dg__put_u64(buf + 8, len);
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS) {
        dg__put_u64(buf + 16, dg__fnv(DG__FNV_SEED, (const char *)bin, len));
        if (where == 2) {
            g->desc.cache_io.write(path, buf, 24 + len, g->desc.cache_io.user_data);
        } else if (snprintf(tmp, sizeof tmp, "%s.%p.tmp", path, (void *)g) < (int)sizeof tmp &&
                   (f = fopen(tmp, "wb")) != NULL) {
            int ok = fwrite(buf, 1, 24 + len, f) == 24 + len;
            ok = (fclose(f) == 0) && ok;
            if (!ok || rename(tmp, path) != 0) remove(tmp);
        }
    }
    dg__free(g, buf);
}

/* Builds the sources (concatenated) with opts: from the process-wide cache, else from the
   binary cache on disk when it holds a valid binary, else from source (then both caches are
   written). A failed build returns DG_ERR_OPENCL with the compiler's log in the message (as
   much as fits) and, whole, in the log callback. */
static dg_status dg__build(dg_graph *g, const char *const *src, const size_t *len, size_t nsrc,
                           const char *opts, cl_program *out) {
    dg__dev *d = g->dev;
    char path[1024];
    uint64_t key = dg__program_key(g, opts, src, len, nsrc);
    int cache = dg__cache_path(g, key, path, sizeof path);
    cl_program prog = dg__cache_find(d->ctx, d->device, key);
    cl_int e;
    *out = NULL;
    if (prog) { *out = prog; return DG_OK; }
    d->programs_built++;
    if (cache) {
        size_t blen = 0;
        unsigned char *bin = dg__cache_read(g, cache, path, &blen);
        if (bin) {
            const unsigned char *b = bin + 24;
            cl_int bs = CL_INVALID_BINARY;
            prog = clCreateProgramWithBinary(d->ctx, 1, &d->device, &blen, &b, &bs, &e);
            if (e != CL_SUCCESS || bs != CL_SUCCESS ||
                clBuildProgram(prog, 1, &d->device, opts, NULL, NULL) != CL_SUCCESS) {
                if (prog) clReleaseProgram(prog);
                prog = NULL;
                dg__log(g, DG_LOG_WARNING, "dyngraph: a cached kernel binary was not usable; building from source");
            }
            dg__free(g, bin);
        }
    }
    if (!prog) {
        prog = clCreateProgramWithSource(d->ctx, (cl_uint)nsrc, (const char **)src, len, &e);
        if (e != CL_SUCCESS) return dg__clfail(g, e, "clCreateProgramWithSource");
        e = clBuildProgram(prog, 1, &d->device, opts, NULL, NULL);
        if (e != CL_SUCCESS) {
            size_t n = 0;
            char *log = NULL, head[128];
            dg_status st;
            clGetProgramBuildInfo(prog, d->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
            if (n && (log = (char *)dg__alloc(g, n + 1)) != NULL) {
                if (clGetProgramBuildInfo(prog, d->device, CL_PROGRAM_BUILD_LOG, n, log, NULL) != CL_SUCCESS) log[0] = 0;
                log[n] = 0;
            }
            snprintf(head, sizeof head, "clBuildProgram failed: %s (%d); build log:\n", dg__cl_error_name(e), (int)e);
            st = dg__fail_long(g, DG_ERR_OPENCL, head, log ? log : "(none)");
            dg__free(g, log);
            clReleaseProgram(prog);
            return st;
        }
        if (cache) dg__cache_write(g, prog, cache, path);
    }
    dg__cache_put(d->ctx, d->device, key, prog);
    *out = prog;
    return DG_OK;
}

/* Kernels hold positions in the pool (kernels/10_adjacency.cl, dg_pos) in 32 bits while
   every pool buffer holds at most dg__pos32_max entries (2^32), in 64 past that (DG_POS64): a
   graph of more than ~4G arcs pays for the wider positions, a smaller one does not. When a
   pool buffer grows past the limit (or the device is made), the library's programs and
   kernels are let go, to be built again on first use with the other width; user programs
   (dg_program) are built again on their next launch (dg__uprog_fresh). Call right after the
   pool buffers change, where no kernel handle is held. */
static uint64_t dg__pos32_max = (uint64_t)1 << 32;   /* a test hook: 0 makes every position 64-bit */
/* Lets go of every library program and kernel of d (built again on first use). */
static void dg__programs_release(dg__dev *d) {
    int v, j;
    for (v = 0; v < DG__VARIANTS; v++) {
        for (j = 0; j < DG__K_COUNT; j++) if (d->kern[v][j]) { clReleaseKernel(d->kern[v][j]); d->kern[v][j] = NULL; }
        for (j = 0; j < DG__MOD_COUNT; j++) if (d->prog[v][j]) { clReleaseProgram(d->prog[v][j]); d->prog[v][j] = NULL; }
    }
}
static int dg__pos_wide(const dg__dev *d) {
    return (uint64_t)d->st[0].pool.cap / 4 > dg__pos32_max || (uint64_t)d->st[1].pool.cap / 4 > dg__pos32_max;
}
/* Bytes of a position in the programs of d (a dg_pos). */
static size_t dg__pos_bytes(const dg__dev *d) { return d->pos64 ? 8 : 4; }
static void dg__pos_width(dg_graph *g) {
    dg__dev *d = g->dev;
    int want = dg__pos_wide(d);
    if (want == d->pos64) return;
    dg__programs_release(d);
    d->pos64 = want;
    d->prog_gen++;
}

/* Build options: page size, directory stride, work-group size, variant, 64-bit positions,
   NVIDIA's platform
   (DG_NV_PTX: see DG_DEVICE_FENCE in kernels/40_bfs.cl), a CPU device (DG_CPU: see dg_bfs_td),
   then DYNGRAPH_CL_OPTIONS whole: options that do not fit buf are an error, never cut. */
static dg_status dg__options(dg_graph *g, char *buf, size_t cap, int csr) {
    uint32_t lp = 0;
    const char *extra = getenv("DYNGRAPH_CL_OPTIONS");
    int len;
    while ((1u << lp) < g->P) lp++;
    len = snprintf(buf, cap, "-cl-std=CL1.2 -DDG_LOG_P=%u -DDG_DS=%u -DDG_WG=%u%s%s%s%s%s%s%s", (unsigned)lp,
                   (unsigned)(2 * g->nstores), (unsigned)g->dev->wg, csr ? " -DDG_CSR" : "",
                   g->dev->pos64 ? " -DDG_POS64" : "",
                   g->dev->nvidia ? " -DDG_NV_PTX" : "", g->dev->nv_sm70 ? " -DDG_NV_SM70" : "",
                   g->dev->cpu ? " -DDG_CPU" : "", extra && *extra ? " " : "", extra ? extra : "");
    if (len < 0 || (size_t)len >= cap)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "DYNGRAPH_CL_OPTIONS is too long (%zu characters; "
                        "the build options hold %zu)", extra ? strlen(extra) : (size_t)0, cap - 1);
    return DG_OK;
}

/* The program of module m (variant v), built on first use: the common files, then the
   module's. */
static dg_status dg__program(dg_graph *g, int m, int v, cl_program *out) {
    dg__dev *d = g->dev;
    const char *src[8];
    size_t len[8], n;
    char opts[512];
    dg_status st;
    if (!d->prog[v][m]) {
        n = dg__source_files(DG__COMMON_FILES, src, len, 0, 8);
        n = dg__source_files(dg__module_files[m], src, len, n, 8);
        if ((st = dg__options(g, opts, sizeof opts, v)) != DG_OK) return st;
        if ((st = dg__build(g, src, len, n, opts, &d->prog[v][m])) != DG_OK) return st;
    }
    *out = d->prog[v][m];
    return DG_OK;
}
/* Kernel k of variant v (0: the pages, 1: the CSR copy), made on first use. */
static dg_status dg__kernel(dg_graph *g, int k, int v, cl_kernel *out) {
    dg__dev *d = g->dev;
    cl_program prog;
    dg_status st;
    cl_int e;
    DG_ASSERT(d->pos64 == dg__pos_wide(d));   /* dg__pos_width called wherever a pool grew */
    if (!d->kern[v][k]) {
        if ((st = dg__program(g, dg__kinfo[k].module, v, &prog)) != DG_OK) return st;
        d->kern[v][k] = clCreateKernel(prog, dg__kinfo[k].name, &e);
        if (e != CL_SUCCESS) {
            d->kern[v][k] = NULL;
            return dg__clfail(g, e, "clCreateKernel");
        }
    }
    *out = d->kern[v][k];
    return DG_OK;
}

/* The state of module m, made zeroed on first use (NULL when out of memory: the message is
   set). Use DG__STATE. */
static void *dg__module_state(dg_graph *g, int m, size_t size, size_t buf_off, size_t nbufs) {
    dg__module *mod = &g->dev->mod[m];
    if (!mod->state) {
        if (!(mod->state = dg__alloc(g, size))) {
            dg__oom(g, "device state");
            return NULL;
        }
        memset(mod->state, 0, size);
        mod->buf_off = buf_off;
        mod->nbufs = nbufs;
    }
    return mod->state;
}
static dg__buf *dg__module_bufs(const dg__module *mod) {
    return (dg__buf *)(void *)((char *)mod->state + mod->buf_off);
}
/* Device bytes held by module m's buffers. */
static size_t dg__module_bytes(const dg__dev *d, int m) {
    const dg__module *mod = &d->mod[m];
    size_t i, bytes = 0;
    for (i = 0; mod->state && i < mod->nbufs; i++) bytes += dg__module_bufs(mod)[i].cap;
    return bytes;
}

static void dg__dev_free_one(dg_graph *g) {
    dg__dev *d = g->dev;
    int i;
    if (!d) return;
    if (d->queue) clFinish(d->queue);
    if (d->ev_first) clReleaseEvent(d->ev_first);
    if (d->ev_last) clReleaseEvent(d->ev_last);
    while (d->nevs) clReleaseEvent(d->evs[--d->nevs]);
    dg__free(g, d->evs);
    dg__programs_release(d);
    for (i = 0; i < DG__MOD_COUNT; i++) {   /* the modules' state: its buffers, then itself */
        dg__module *mod = &d->mod[i];
        size_t k;
        for (k = 0; mod->state && k < mod->nbufs; k++) dg__buf_free(d, &dg__module_bufs(mod)[k]);
        dg__free(g, mod->state);
    }
    for (i = 0; i < 2; i++) {
        dg__buf_free(d, &d->st[i].pool);
        dg__buf_free(d, &d->st[i].wpool);
        dg__buf_free(d, &d->st[i].idx);
        dg__buf_free(d, &d->st[i].latab);
        dg__free(g, d->lp[i].glob); dg__free(g, d->lp[i].lfree); dg__free(g, d->lp[i].pend);
    }
    dg__buf_free(d, &d->dir);
    while (d->nhblk) dg_host_free(g, d->hblk[d->nhblk - 1].p);
    dg__free(g, d->hblk);
    if (d->pin_ptr) clEnqueueUnmapMemObject(d->queue, d->pin, d->pin_ptr, 0, NULL, NULL);
    if (d->queue) clFinish(d->queue);
    if (d->pin) clReleaseMemObject(d->pin);
    if (d->stage) clReleaseMemObject(d->stage);
    if (d->queue) clReleaseCommandQueue(d->queue);
    if (d->ctx_listed) dg__context_release(d->ctx);
    if (d->ctx) clReleaseContext(d->ctx);
    dg__free(g, d->desc);
    dg__free(g, d);
    g->dev = NULL;
}
/* Frees every device's state (the last first). */
static void dg__dev_free(dg_graph *g) {
    int i;
    if (!g->devs) { dg__dev_free_one(g); return; }
    for (i = g->ndev - 1; i >= 0; i--) {
        g->dev = g->devs[i];
        dg__dev_free_one(g);
    }
    dg__free(g, g->devs);
    g->devs = NULL;
    g->ndev = 0;
}

/* Several devices (>>shard): a graph opens dg_desc.devices (else DYNGRAPH_DEVICES) > 1 devices,
   the first that dg_desc.device / DYNGRAPH_DEVICE names, as dg__pick_device counts them, each
   with its own state (dg__dev: context, queue, staging, programs, mirror of its shard).
   g->dev is the device an operation runs on: devs[0] outside the loops over devices. */
static int dg__devices_n(const dg_graph *g) {
    const char *e = getenv("DYNGRAPH_DEVICES");
    if (g->desc.devices > 1) return g->desc.devices;
    if (g->desc.devices == 1 || g->desc.context || g->desc.reuse_ids || !e) return 1;
    return atoi(e) > 1 && atoi(e) <= DG_MAX_DEVICES ? atoi(e) : 1;
}

/* Sets up one device (g->dev; on failure NULL): the caller's context and queue (dg_desc), or
   the given device in the library's context for it. */
static dg_status dg__dev_init_one(dg_graph *g, cl_platform_id plat, cl_device_id device) {
    dg__dev *d;
    dg_status st = DG_OK;
    cl_int e;
    cl_uint cu = 1;
    size_t maxwg = 1;
    char pname[256] = "", dname[256] = "", dver[256] = "", drv[256] = "";
    d = (dg__dev *)dg__alloc(g, sizeof *d);
    if (!d) return dg__oom(g, "device state");
    memset(d, 0, sizeof *d);
    g->dev = d;
    if (g->desc.context) {
        cl_command_queue_properties props = 0;
        if (clRetainContext(g->desc.context) != CL_SUCCESS) {
            st = dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_desc.context is not a valid OpenCL context"); goto done;
        }
        d->ctx = g->desc.context;
        if (clRetainCommandQueue(g->desc.queue) != CL_SUCCESS) {
            st = dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_desc.queue is not a valid command queue"); goto done;
        }
        d->queue = g->desc.queue;
        DG__CL(clGetCommandQueueInfo(d->queue, CL_QUEUE_DEVICE, sizeof d->device, &d->device, NULL));
        DG__CL(clGetCommandQueueInfo(d->queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
        DG__CL(clGetDeviceInfo(d->device, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL));
        d->profiling = (props & CL_QUEUE_PROFILING_ENABLE) != 0;
        DG__TRY(dg__context_acquire(g, plat, d->device, g->desc.context, &d->ctx));
    } else {
        d->device = device;
        DG__TRY(dg__context_acquire(g, plat, d->device, NULL, &d->ctx));
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
        d->queue = clCreateCommandQueue(d->ctx, d->device, CL_QUEUE_PROFILING_ENABLE, &e);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
        if (e != CL_SUCCESS) { d->queue = NULL; st = dg__clfail(g, e, "clCreateCommandQueue"); goto done; }
        d->profiling = 1;
    }
    clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    DG__CL(clGetDeviceInfo(d->device, CL_DEVICE_NAME, sizeof dname, dname, NULL));
    clGetDeviceInfo(d->device, CL_DEVICE_VERSION, sizeof dver, dver, NULL);
    clGetDeviceInfo(d->device, CL_DRIVER_VERSION, sizeof drv, drv, NULL);
    pname[sizeof pname - 1] = dname[sizeof dname - 1] = dver[sizeof dver - 1] = drv[sizeof drv - 1] = 0;
    d->pocl = dg__contains(pname, "Portable Computing Language");
    d->nvidia = dg__contains(pname, "NVIDIA");
    if (d->nvidia) {   /* cl_nv_device_attribute_query: CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV */
        cl_uint major = 0;
        d->nv_sm70 = clGetDeviceInfo(d->device, 0x4000, sizeof major, &major, NULL) == CL_SUCCESS && major >= 7;
    }
    if (snprintf(d->name, sizeof d->name, "%.120s: %.120s", pname, dname) < 0) d->name[0] = 0;
    if (snprintf(d->key, sizeof d->key, "%.200s|%.200s|%.200s|%.200s|%s", pname, dname, dver, drv,
                 DYNGRAPH_VERSION_STRING) < 0) d->key[0] = 0;
    DG__CL(clGetDeviceInfo(d->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    DG__CL(clGetDeviceInfo(d->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxwg, &maxwg, NULL));
    DG__CL(clGetDeviceInfo(d->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof d->max_alloc, &d->max_alloc, NULL));
    DG__CL(clGetDeviceInfo(d->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof d->global_mem, &d->global_mem, NULL));
    {
        cl_device_type type = 0;
        DG__CL(clGetDeviceInfo(d->device, CL_DEVICE_TYPE, sizeof type, &type, NULL));
        d->cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    }
    for (d->wg = 256; d->wg > 1 && d->wg > maxwg; d->wg /= 2) {}
    d->cu = cu ? cu : 1;
    d->groups = d->cu * 8;
    if (!DG__STATE(g, DG__MOD_CORE, dg__core_state)) { st = DG_ERR_OUT_OF_MEMORY; goto done; }
    {   /* the core program now: the sync needs it, and a device that cannot build it fails here */
        cl_program core;
        DG__TRY(dg__program(g, DG__MOD_CORE, 0, &core));
    }
    {   /* staging: pinned host memory (CL_MEM_ALLOC_HOST_PTR), mapped once, and a device twin */
        d->st_bytes = DG__STAGE_BYTES;
        DG__TRY(dg__cl_buffer(g, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, d->st_bytes, "pinned staging", &d->pin));
        d->pin_ptr = (unsigned char *)clEnqueueMapBuffer(d->queue, d->pin, CL_TRUE, CL_MAP_WRITE, 0, d->st_bytes, 0, NULL, NULL, &e);
        if (e != CL_SUCCESS) { d->pin_ptr = NULL; st = dg__clfail(g, e, "clEnqueueMapBuffer (pinned staging)"); goto done; }
        DG__TRY(dg__cl_buffer(g, CL_MEM_READ_ONLY, d->st_bytes, "staging", &d->stage));
        d->bytes += 2 * d->st_bytes;
    }
    {
        char msg[400];
        snprintf(msg, sizeof msg, "dyngraph: using %s", d->name);
        dg__log(g, DG_LOG_INFO, msg);
    }
done:
    if (st != DG_OK) dg__dev_free_one(g);
    return st;
}

/* Sets up OpenCL on the first device operation: one device, or dg__devices_n of them.
   All-or-nothing: on failure g->dev stays NULL. */
static dg_status dg__dev_init(dg_graph *g) {
    cl_platform_id plat = NULL, p1 = NULL;
    cl_device_id device = NULL;
    dg_status st = DG_OK;
    int n = dg__devices_n(g), i, made = 0;
    if (g->dev) return DG_OK;
    if (!g->desc.context && (st = dg__pick_device(g, 0, &plat, &device)) != DG_OK) return st;
    if (n == 1) return dg__dev_init_one(g, plat, device);
    if (!(g->devs = (dg__dev **)dg__alloc(g, (size_t)n * sizeof *g->devs))) return dg__oom(g, "devices");
    for (i = 0; i < n; i++) {
        if (i > 0 && (st = dg__pick_device(g, i, &p1, &device)) != DG_OK) break;
        if (i > 0 && p1 != plat) { st = dg__fail(g, DG_ERR_NO_DEVICE, "device %d is on another platform than the first", i); break; }
        g->dev = NULL;
        if ((st = dg__dev_init_one(g, plat, device)) != DG_OK) break;
        g->dev->id = made;
        g->devs[made++] = g->dev;
    }
    g->ndev = made;
    if (st != DG_OK) {                   /* (those set up go: all-or-nothing) */
        dg__dev_free(g);
        return st;
    }
    g->dev = g->devs[0];
    return DG_OK;
}

/* =========================================================================
   The device mirror: sending changed pages (manual section 11)   >>mirror
   =========================================================================
   Device buffers mirror, per store, the pool (and weights), the page index and the LA table,
   plus the shared directory. Mutations mark changed pages (dg__touch: a flag and a list),
   directory blocks (dg__dir_mark) and LA-table moves. A sync copies each changed piece into
   the pinned staging buffer with a descriptor (source, destination, length), writes the
   staging buffer once, and runs one scatter kernel per destination buffer. Buffers that must
   grow take a quarter more (at least what they need) with a device-to-device copy: device
   memory is scarcer than the copies cost (bench/NOTES.md, memory under churn). */

#ifdef DYNGRAPH_TRACE_UPDATE
#define DG__TRACE_KMAX 4096
static cl_kernel dg__trace_kern[DG__TRACE_KMAX];   /* (trace builds: the kernel of kept event i) */
#endif
/* Launches kernel k over `global` work-items (rounded up to the work-group size `local`),
   keeping the events of a timed run. */
static dg_status dg__launch(dg_graph *g, cl_kernel k, size_t global, size_t local) {
    dg__dev *d = g->dev;
    cl_event ev = NULL;
    cl_int e;
    if (global == 0) return DG_OK;
    global = (global + local - 1) / local * local;
    e = clEnqueueNDRangeKernel(d->queue, k, 1, NULL, &global, &local, 0, NULL,
                               d->profiling && (d->ksum || d->timed) ? &ev : NULL);
    if (e != CL_SUCCESS) return dg__clfail(g, e, "clEnqueueNDRangeKernel");
    if (ev) {
        d->events++;
        if (d->ksum && (d->nevs < d->evs_cap ||
                        dg__grow(g, (void **)&d->evs, d->evs_cap, d->evs_cap ? 2 * d->evs_cap : 64, sizeof *d->evs))) {
            if (d->nevs == d->evs_cap) d->evs_cap = d->evs_cap ? 2 * d->evs_cap : 64;
            clRetainEvent(ev);
            d->evs[d->nevs++] = ev;
#ifdef DYNGRAPH_TRACE_UPDATE
            if (d->nevs <= DG__TRACE_KMAX) dg__trace_kern[d->nevs - 1] = k;
#endif
        } else if (d->ksum) d->evs_lost = 1;
        if (!d->ev_first) d->ev_first = ev;
        else { if (d->ev_last) clReleaseEvent(d->ev_last); d->ev_last = ev; }
    }
    return DG_OK;
}
/* Kernel kid (variant 0) with the arguments that follow (as dg__args), over `global`
   work-items in work-groups of the device's size. */
static dg_status dg__run(dg_graph *g, int kid, size_t global, ...) {
    dg_status st;
    cl_kernel k = NULL;
    va_list ap;
    if ((st = dg__kernel(g, kid, 0, &k)) != DG_OK) return st;
    va_start(ap, global);
    st = dg__vargs(g, k, ap);
    va_end(ap);
    return st == DG_OK ? dg__launch(g, k, global, g->dev->wg) : st;
}
static void dg__timing_reset(dg__dev *d) {
    if (d->ev_first) clReleaseEvent(d->ev_first);
    if (d->ev_last) clReleaseEvent(d->ev_last);
    d->ev_first = d->ev_last = NULL;
    while (d->nevs) clReleaseEvent(d->evs[--d->nevs]);
    d->evs_lost = 0;
}
/* The summed execution time of the run's kernels (ms; with ksum on, after the queue drained):
   device_ms less the gaps of launches and read-backs. -1 when not known. */
static double dg__kernel_ms(dg__dev *d) {
    double ms = 0;
    size_t i;
    if (!d->ksum || !d->profiling || d->evs_lost) return -1.0;
    for (i = 0; i < d->nevs; i++) {
        cl_ulong t0 = 0, t1 = 0;
        if (clGetEventProfilingInfo(d->evs[i], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) != CL_SUCCESS ||
            clGetEventProfilingInfo(d->evs[i], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) != CL_SUCCESS)
            return -1.0;
        if (t1 > t0) ms += (double)(t1 - t0) * 1e-6;
    }
    return ms;
}
/* Milliseconds from the start of the first kernel to the end of the last since the reset
   (after clFinish); -1 without profiling. */
static double dg__timing_ms(dg__dev *d) {
    cl_ulong t0 = 0, t1 = 0;
    cl_event last = d->ev_last ? d->ev_last : d->ev_first;
    if (!d->ev_first) return d->profiling ? 0.0 : -1.0;
    if (clGetEventProfilingInfo(d->ev_first, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) != CL_SUCCESS)
        return -1.0;
    return t1 > t0 ? (double)(t1 - t0) * 1e-6 : 0.0;
}
/* Host wall time in ms: gettimeofday (POSIX, Apple), timespec_get (Windows, C11), else clock(). */
static double dg__now_ms(void) {
#if defined(DG__HAVE_GETTIMEOFDAY)      /* POSIX, Apple: whatever the C standard asked for */
    struct timeval tv;
    if (gettimeofday(&tv, NULL) == 0) return (double)tv.tv_sec * 1e3 + (double)tv.tv_usec * 1e-3;
#elif defined(TIME_UTC) && (defined(_WIN32) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L))
    struct timespec ts;               /* (the Windows CRT has timespec_get in every C mode) */
    if (timespec_get(&ts, TIME_UTC) == TIME_UTC) return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
#endif
    return (double)clock() * 1e3 / CLOCKS_PER_SEC;
}

/* -DDYNGRAPH_TRACE_UPDATE: the wall time of each phase of a device batch or a sync since the
   last call (*t, 0 at the start), to stderr, after the queue drained, and (a queue with
   profiling) the execution time of its kernels by name; nothing otherwise. */
static void dg__up_trace(dg_graph *g, double *t, const char *phase) {
#ifdef DYNGRAPH_TRACE_UPDATE
    dg__dev *d = g->dev;
    double now;
    clFinish(d->queue);
    now = dg__now_ms();
    if (*t > 0) {
        char name[32][40];
        double ms[32];
        unsigned cnt[32], nk = 0, i, j;
        fprintf(stderr, "  [update] %-10s %8.3f ms\n", phase, now - *t);
        for (i = 0; i < d->nevs && i < DG__TRACE_KMAX; i++) {
            char nm[40] = "?";
            cl_ulong t0 = 0, t1 = 0;
            clGetKernelInfo(dg__trace_kern[i], CL_KERNEL_FUNCTION_NAME, sizeof nm, nm, NULL);
            nm[sizeof nm - 1] = 0;
            clGetEventProfilingInfo(d->evs[i], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
            clGetEventProfilingInfo(d->evs[i], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
            for (j = 0; j < nk && strcmp(name[j], nm); j++) {}
            if (j == nk && nk < 32) { memcpy(name[nk], nm, sizeof nm); ms[nk] = 0; cnt[nk] = 0; nk++; }
            if (j < nk) { ms[j] += t1 > t0 ? (double)(t1 - t0) * 1e-6 : 0; cnt[j]++; }
        }
        for (j = 0; j < nk; j++) fprintf(stderr, "  [update]     %-22s %3u x %8.3f ms\n", name[j], cnt[j], ms[j]);
    }
    dg__timing_reset(d);
    d->ksum = 1;   /* (the next phase's kernels kept) */
    *t = *t > 0 ? dg__now_ms() : now;   /* (the printing not counted) */
#else
    (void)g; (void)t; (void)phase;
#endif
}

/* Sends what is staged: one write of data and descriptors, one scatter per destination. */
static dg_status dg__stage_flush(dg_graph *g) {
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    size_t doff = (d->st_used + 31) & ~(size_t)31, i;
    cl_kernel k = NULL;
    if (d->ndesc == 0) return DG_OK;
    memcpy(d->pin_ptr + doff, d->desc, d->ndesc * 4 * sizeof(uint64_t));
    DG__CL(clEnqueueWriteBuffer(d->queue, d->stage, CL_TRUE, 0, doff + d->ndesc * 4 * sizeof(uint64_t),
                                d->pin_ptr, 0, NULL, NULL));
    DG__TRY(dg__kernel(g, DG__K_SCATTER, 0, &k));
    for (i = 0; i < d->ngrp; i++) {
        cl_uint n = (cl_uint)d->grp[i].n;
        cl_mem dst = d->grp[i].dst;
        cl_uint first = (cl_uint)(doff / sizeof(uint64_t) + 4 * d->grp[i].first);
        DG__TRY(dg__args(g, k, DG__A(d->stage), DG__A(dst), DG__A(d->stage), DG__A(first),
                               DG__A(n), DG__END));
        DG__TRY(dg__launch(g, k, (n < 4096 ? n : 4096) * (size_t)d->wg, d->wg));
    }
done:
    d->st_used = 0; d->ndesc = 0; d->ngrp = 0;
    return st;
}
/* Bytes of data the staging buffer still takes: the descriptors (this chunk's, and slack for
   aligning them) stay inside the buffer. Never wraps. */
static size_t dg__stage_room(const dg__dev *d) {
    size_t used = ((d->st_used + 31) & ~(size_t)31) + (d->ndesc + 3) * 32;
    return used < d->st_bytes ? d->st_bytes - used : 0;
}
/* Stages n int32 entries (or floats) from src for dst at entry offset `to`. */
static dg_status dg__stage(dg_graph *g, cl_mem dst, size_t to, const void *src, size_t n) {
    dg__dev *d = g->dev;
    dg_status st;
    while (n) {
        size_t room, take;
        uint64_t *ds;
        if (d->ndesc + 2 > d->desc_cap) {
            size_t cap = d->desc_cap ? 2 * d->desc_cap : 1024;
            if (!dg__grow(g, (void **)&d->desc, d->desc_cap * 4, cap * 4, sizeof(uint64_t))) return dg__oom(g, "staging");
            d->desc_cap = cap;
        }
        if ((!d->ngrp || d->grp[d->ngrp - 1].dst != dst) && d->ngrp == sizeof d->grp / sizeof d->grp[0] &&
            (st = dg__stage_flush(g)) != DG_OK)
            return st;   /* (a new group and none left: before the data goes in) */
        room = dg__stage_room(d);
        if (room < 4096 && (st = dg__stage_flush(g)) != DG_OK) return st;
        room = dg__stage_room(d);
        take = n < room / 4 ? n : room / 4;
        memcpy(d->pin_ptr + d->st_used, src, take * 4);
        d->sync_bytes += take * 4;
        /* extend the previous chunk when this one continues it */
        ds = d->desc + 4 * (d->ndesc - (d->ndesc ? 1 : 0));
        if (d->ngrp && d->grp[d->ngrp - 1].dst == dst && d->ndesc &&
            ds[0] + ds[2] == d->st_used / 4 && ds[1] + ds[2] == to) {
            ds[2] += take;
        } else {
            if (!d->ngrp || d->grp[d->ngrp - 1].dst != dst) {
                DG_ASSERT(d->ngrp < sizeof d->grp / sizeof d->grp[0]);
                d->grp[d->ngrp].dst = dst; d->grp[d->ngrp].first = d->ndesc; d->grp[d->ngrp].n = 0;
                d->ngrp++;
            }
            ds = d->desc + 4 * d->ndesc++;
            ds[0] = d->st_used / 4; ds[1] = to; ds[2] = take; ds[3] = 0;
            d->grp[d->ngrp - 1].n++;
        }
        d->st_used += take * 4;
        src = (const char *)src + take * 4; to += take; n -= take;
    }
    return DG_OK;
}

/* ---- Ownership: the pages a device batch wrote ----
   The host's copy of a page is the truth, unless the page is stale (dg__store.stale): a device batch
   (>>update) wrote it, and the device's copy is the truth until the host reads it back. A
   stale page has no entries changed on the host (dg__phost.segs = 0; its index entry, which
   the host owns, may have): a device batch starts with a sync, and the host reads a stale
   page back before it reads or changes its entries (dg__fresh_list, dg__fresh_all).
   dg__fresh_pages reads the stale ones among pages[0..n): each run of consecutive pages in
   one read, or, past DG__FRESH_RUNS runs, gathered on the device into 16 MiB chunks, one read
   a chunk (one transfer beats thousands, and reads no page that is not stale). A caller that
   changes the lists on pages also reads their directory blocks back (dg__fresh_dir_pages: the
   device's entries of moved lists, see dg__dir_take). */
#ifndef DG__FRESH_RUNS
#define DG__FRESH_RUNS 4        /* (test_update sets it low to run the gather path) */
#endif
/* Entries in use in page p (dg__phost.fill), from its content. */
static uint32_t dg__page_fill(const dg_graph *g, const dg__store *s, int32_t p) {
    const int32_t *pg = DG__PAGE(g, s, p);
    uint32_t i, n = (uint32_t)pg[0], f = DG__HDR + 2 * n;
    if (pg[2]) return s->idx[p].la_pos == 0 ? g->P : (uint32_t)pg[1];
    for (i = 0; i < n; i++) f += 1 + (uint32_t)pg[DG__SLOT_OFF(g, pg, i)];
    return f;
}
static int dg__cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}
/* Units of `unit` bytes a gathered read takes at once, of k: what the pinned staging buffer
   holds (0: a unit larger than it). */
static size_t dg__gather_chunk(const dg__dev *d, size_t unit, size_t k) {
    size_t C = d->st_bytes / unit;
    return C < k ? C : k;
}
/* Room for dg__read_units to gather k units of `unit` bytes (its device buffers): made ahead
   by a device batch, which allocates nothing once its writes began. */
static dg_status dg__gather_reserve(dg_graph *g, size_t k, size_t unit) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    size_t C = dg__gather_chunk(g->dev, unit, k);
    dg_status st = DG_OK;
    if (!C) return DG_OK;   /* (read as runs) */
    DG__TRY(dg__buf_fit(g, &cs->b.gather, C * unit));
    DG__TRY(dg__buf_fit(g, &cs->b.glist, k * 4));
done:
    return st;
}
/* Reads the units list[0..k) (ascending unit numbers, `unit` bytes each: pages, directory
   blocks) of device buffer src into dst + list[i] x unit: each run of consecutive units in one
   read, or, past runs_max runs, gathered on the device into chunks of the pinned staging
   buffer (16 MiB, idle outside a sync), one read a chunk (one transfer beats thousands, reads
   nothing else, and runs at the bus's speed: the gathered read of a 1M-edge batch's room went
   into pageable memory first). Units that reach past `limit` bytes of src are read as runs, cut
   there. It allocates nothing on the host. */
static dg_status dg__read_units(dg_graph *g, cl_mem src, char *dst, const int32_t *list, size_t k, size_t unit,
                                size_t limit, size_t runs_max) {
    dg__dev *d = g->dev;
    dg__core_state *cs = (dg__core_state *)d->mod[DG__MOD_CORE].state;
    dg_status st = DG_OK;
    size_t i, j, c, kf, runs = 0, C = dg__gather_chunk(d, unit, k);
    DG_ASSERT(!d->ndesc);   /* (no sync is staging) */
    for (i = 0; i < k; i++) runs += i == 0 || list[i] != list[i - 1] + 1;
    kf = runs > runs_max && C ? k : 0;   /* (C = 0: a unit larger than the buffer, read as runs) */
    while (kf && ((size_t)list[kf - 1] + 1) * unit > limit) kf--;
    if (kf) {
        DG__TRY(dg__gather_reserve(g, kf, unit));
        /* (not blocking: the reads below are, on the same queue) */
        DG__CL(clEnqueueWriteBuffer(d->queue, cs->b.glist.m, CL_FALSE, 0, kf * 4, list, 0, NULL, NULL));
    }
    for (i = 0; i < kf; i += c) {   /* in chunks: gather, one read, put in place */
        cl_uint uc, at = (cl_uint)i, words = (cl_uint)(unit / 4);
        c = kf - i < C ? kf - i : C;
        uc = (cl_uint)c;
        DG__TRY(dg__run(g, DG__K_GATHER_PAGES, c * d->wg, DG__A(src), DG__A(cs->b.glist.m), DG__A(at), DG__A(uc),
                        DG__A(words), DG__A(cs->b.gather.m), DG__END));
        DG__CL(clEnqueueReadBuffer(d->queue, cs->b.gather.m, CL_TRUE, 0, c * unit, d->pin_ptr, 0, NULL, NULL));
        for (j = 0; j < c; j++) memcpy(dst + (size_t)list[i + j] * unit, d->pin_ptr + j * unit, unit);
    }
    for (i = kf; i < k; i = j) {
        size_t lo, hi;
        for (j = i + 1; j < k && list[j] == list[j - 1] + 1; j++) {}
        lo = (size_t)list[i] * unit;
        hi = ((size_t)list[j - 1] + 1) * unit;
        if (hi > limit) hi = limit;
        DG__CL(clEnqueueReadBuffer(d->queue, src, CL_FALSE, lo, hi - lo, dst + lo, 0, NULL, NULL));
    }
    DG__CL(clFinish(d->queue));
done:
    if (st != DG_OK) clFinish(d->queue);   /* (no read left going into dst, no write from list) */
    return st;
}
/* Reads the pages list[0..k) (ascending) of store si's pool and weights into the host copy. */
static dg_status dg__fresh_read(dg_graph *g, int si, const int32_t *list, size_t k) {
    dg__store *s = &g->st[si];
    dg__dstore *m = &g->dev->st[si];
    dg_status st = dg__read_units(g, m->pool.m, (char *)s->pool, list, k, (size_t)g->P * 4, (size_t)-1, DG__FRESH_RUNS);
    if (st == DG_OK && s->wpool)
        st = dg__read_units(g, m->wpool.m, (char *)s->wpool, list, k, (size_t)g->P * 4, (size_t)-1, DG__FRESH_RUNS);
    return st;
}
/* Reads back the directory blocks among b[0..n) that are the device's (dd.dev; the others and
   repeats skipped, b reordered), through dg__read_units: gathered (gather) past
   DG__FRESH_BLOCK_RUNS runs (a read costs ~5-20 us on NVIDIA's host, a block is 0.5-1 KB), else
   run by run. Host calls (gather = 1) that read more than DG__DIR_SINGLES blocks in all since
   the last batch read every block of the device's at once. A device batch (gather = 2) reads
   only the blocks it needs, gathered (all of them at once took ~9 ms of a 1M-edge batch on
   the H200 machine), and once its writes began, into the room it reserved before
   (dg__gather_reserve: 1,273 blocks read run by run took 6.8 ms there). */
#ifndef DG__FRESH_BLOCK_RUNS
#define DG__FRESH_BLOCK_RUNS 4  /* (test_update sets it low to run the gather path) */
#endif
static size_t dg__fresh_block_runs = DG__FRESH_BLOCK_RUNS;   /* (and changes it between batches) */
static dg_status dg__fresh_blocks(dg_graph *g, uint32_t *b, size_t n, int gather) {
    dg__dirdirty *dd = &g->dd;
    const size_t ds = 2 * (size_t)g->nstores;
    size_t i, k = 0;
    dg_status st;
    for (i = 0; i < n; i++) if (dd->dev[b[i]]) { dd->dev[b[i]] = 0; b[k++] = b[i]; }   /* (repeats: once) */
    if (!k) return DG_OK;
    if (gather == 1 && dd->singles <= DG__DIR_SINGLES && (dd->singles += k) > DG__DIR_SINGLES && k < dd->ndev) {
        for (i = 0; i < k; i++) dd->dev[b[i]] = 1;   /* many host calls after a batch: the rest at once */
        return dg__fresh_dir_all(g);
    }
    qsort(b, k, sizeof *b, dg__cmp_i32);   /* (block numbers < 2^26) */
    st = dg__read_units(g, g->dev->dir.m, (char *)g->dir, (const int32_t *)b, k, (size_t)DG__DIR_BLOCK * ds * 4,
                        g->id_bound * ds * 4, gather ? dg__fresh_block_runs : (size_t)-1);
    if (st != DG_OK) for (i = 0; i < k; i++) dd->dev[b[i]] = 1;   /* still the device's */
    else { dd->ndev -= k; g->dev->dir_blocks_read += k; }
    return st;
}
/* Reads back the stale pages list[0..k) (ascending) and makes them the host's. */
static dg_status dg__fresh_sorted(dg_graph *g, int si, const int32_t *list, size_t k) {
    dg__store *s = &g->st[si];
    dg_status st = k ? dg__fresh_read(g, si, list, k) : DG_OK;
    size_t i;
    for (i = 0; i < k && st == DG_OK; i++) {
        dg__stale_clear(s, list[i]);
        s->ph[list[i]].fill = dg__page_fill(g, s, list[i]);
    }
    return st;
}
static dg_status dg__fresh_pages(dg_graph *g, int si, const int32_t *pages, size_t n) {
    dg__store *s = &g->st[si];
    dg_status st = DG_OK;
    int32_t *list;
    size_t i, k = 0;
    if (!n || !g->dev) return DG_OK;
    if (!(list = (int32_t *)dg__alloc(g, n * sizeof(int32_t)))) return dg__oom(g, "reading pages back");
    for (i = 0; i < n; i++) if (dg__is_stale(s, pages[i])) list[k++] = pages[i];
    qsort(list, k, sizeof *list, dg__cmp_i32);
    st = dg__fresh_sorted(g, si, list, k);
    dg__free(g, list);
    return st;
}
/* Every stale page of store si (the bits walked: ~5k words at Kronecker scale 22). */
static dg_status dg__fresh_stale(dg_graph *g, int si) {
    dg__store *s = &g->st[si];
    dg_status st;
    int32_t *list;
    size_t w, k = 0, words = (s->page_cap + 31) / 32;
    if (!s->nstale) return DG_OK;
    if (!(list = (int32_t *)dg__alloc(g, s->nstale * sizeof(int32_t)))) return dg__oom(g, "reading pages back");
    for (w = 0; w < words && k < s->nstale; w++) {
        uint32_t b = s->stale[w], j;
        for (j = 0; b; j++, b >>= 1) if (b & 1) list[k++] = (int32_t)(32 * w + j);
    }
    st = dg__fresh_sorted(g, si, list, k);   /* (ascending, every one stale) */
    dg__free(g, list);
    return st;
}

/* The first page of the large list that page p belongs to. */
static int32_t dg__la_first(const dg__store *s, int32_t p) {
    return s->idx[p].la_pos == 0 ? p : s->dir[s->ds * (size_t)s->idx[p].first];
}

/* The sync visits its changed pages scattered over the pool: it prefetches the record of the
   page DG__PF_DIR ahead in its list and the first changed segment of the page DG__PF_LIST
   ahead (a macro for the reason of DG__PREFETCH_ARCS). */
#define DG__PREFETCH_PAGES(g, s, i) do { \
    if ((i) + DG__PF_DIR < (s)->changed_pages) DG__PREFETCH(&(s)->ph[(s)->dlist[(i) + DG__PF_DIR]]); \
    if ((i) + DG__PF_LIST < (s)->changed_pages) { \
        const int32_t p_ = (s)->dlist[(i) + DG__PF_LIST]; \
        const uint64_t m_ = (s)->ph[p_].segs; \
        unsigned b_ = 0; \
        while (b_ < 63 && m_ && !((m_ >> b_) & 1)) b_++; \
        DG__PREFETCH((s)->pool + (size_t)p_ * (g)->P + ((size_t)b_ << (g)->seg_shift)); \
    } \
} while (0)
/* Stages the changed segments of page p of a pool (all of it when the page was rewritten) for
   page `to` of the device's (p itself, but on one of several devices, >>shard). */
static dg_status dg__stage_page(dg_graph *g, const dg__store *s, cl_mem dst, const int32_t *pool, int32_t p,
                                int32_t to) {
    uint64_t m = s->ph[p].segs;
    size_t base = (size_t)p * g->P, dbase = (size_t)to * g->P, S = (size_t)1 << g->seg_shift, a, b;
    dg_status st;
    if (m == ~(uint64_t)0) return dg__stage(g, dst, dbase, pool + base, g->P);
    for (a = 0; a < 64 && m >> a; a = b) {
        if (!((m >> a) & 1)) { b = a + 1; continue; }
        for (b = a; b < 64 && ((m >> b) & 1); b++) {}
        if ((st = dg__stage(g, dst, dbase + a * S, pool + base + a * S, (b - a) * S)) != DG_OK) return st;
    }
    return DG_OK;
}

static dg_status dg__sync_store(dg_graph *g, int si) {
    dg__dev *d = g->dev;
    dg__store *s = &g->st[si];
    dg__dstore *m = &d->st[si];
    dg_status st = DG_OK;
    size_t P = g->P, i, hw = s->page_hw ? s->page_hw : 1;
    /* capacity: grown by a quarter, keeping what the device already has */
    DG__TRY(dg__buf_grow(g, &m->pool, hw * P * 4, d->uploaded ? m->pool.cap : 0));
    dg__pos_width(g);
    if (s->wpool) DG__TRY(dg__buf_grow(g, &m->wpool, hw * P * 4, d->uploaded ? m->wpool.cap : 0));
    DG__TRY(dg__buf_grow(g, &m->idx, hw * sizeof(dg__pindex), d->uploaded ? m->idx.cap : 0));
    DG__TRY(dg__buf_grow(g, &m->latab, (s->latab_len ? s->latab_len : 1) * 4, d->uploaded ? m->latab.cap : 0));
    for (i = 0; i < s->changed_pages; i++) {
        DG__PREFETCH_PAGES(g, s, i);
        DG__TRY(dg__stage_page(g, s, m->pool.m, s->pool, s->dlist[i], s->dlist[i]));
    }
    if (s->wpool)
        for (i = 0; i < s->changed_pages; i++)
            DG__TRY(dg__stage_page(g, s, m->wpool.m, (const int32_t *)(const void *)s->wpool, s->dlist[i], s->dlist[i]));
    for (i = 0; i < s->changed_pages; i++) {
        int32_t p = s->dlist[i];
        if (s->ph[p].dirty & DG__DIRTY_IDX) DG__TRY(dg__stage(g, m->idx.m, (size_t)p * 4, &s->idx[p], 4));
    }
    d->sync_pages += s->changed_pages;
    /* LA-table segments of the large lists whose pages changed (each once), or all of it */
    if (s->latab_moved) {
        DG__TRY(dg__stage(g, m->latab.m, 0, s->latab, s->latab_len));
    } else {
        for (i = 0; i < s->changed_pages; i++) {
            int32_t p = s->dlist[i], p0;
            if (s->idx[p].la_len < 0 || s->idx[p].first < 0) continue;
            p0 = dg__la_first(s, p);
            if (s->idx[p0].la_tab < 0 || (s->ph[p0].dirty & 2)) continue;
            s->ph[p0].dirty |= 2;     /* sent: not again in this sync (bit 1 only, cleared below) */
            DG__TRY(dg__stage(g, m->latab.m, (size_t)s->idx[p0].la_tab, s->latab + s->idx[p0].la_tab,
                              (size_t)s->latab[s->idx[p0].la_tab] + 1));
        }
    }
done:
    for (i = 0; i < s->changed_pages; i++) {
        int32_t p = s->dlist[i];
        if (s->idx[p].la_len >= 0 && s->idx[p].first >= 0) s->ph[dg__la_first(s, p)].dirty &= ~2u;
    }
    return st;
}

/* =========================================================================
   Several devices: the graph sharded by vertex range   >>shard
   =========================================================================
   With dg_desc.devices = N > 1, device i holds the lists of the ids [cut[i], cut[i + 1]) of
   both stores (g->cut, the host store's shards: every page holds one shard's lists, see
   dg__shard_set). Its mirror is a whole small graph: pool, weights, index and LA table
   of its own pages only, numbered 0, 1, ... in the order it got them (dg__lpages), and a
   directory of every id where the others' ids are -1 (removed, degree 0). So every kernel that
   reads lists through the directory runs unchanged on a device; the host puts its own page
   numbers into the device's when it stages them (the directory's and the LA table's page
   fields; ploc / pdev say where each host page went). The cuts balance out-degree + in-degree
   + 1 over the ids, in multiples of DG__DIR_BLOCK (a directory block has one device), planned
   at the first sync and again (with everything sent again) when the ids have doubled since. */

/* A device's sync went out: it holds the graph, a version further on; its statistics. */
static void dg__sync_sent(dg__dev *d) {
    d->uploaded = 1;
    d->gen++;
    d->syncs++;
    d->last_sync_bytes = d->sync_bytes;
    d->last_sync_pages = d->sync_pages;
    d->upload_bytes += d->sync_bytes;
}

/* Hands out a local page on lp for the host's page gp. */
static dg_status dg__lp_take(dg_graph *g, dg__lpages *lp, int32_t gp, int32_t *out) {
    int32_t l;
    if (lp->nfree) l = lp->lfree[--lp->nfree];
    else {
        if (lp->hw == lp->cap) {
            uint32_t cap = lp->cap ? 2 * lp->cap : 256;
            if (!dg__grow(g, (void **)&lp->glob, lp->cap, cap, sizeof(int32_t)) ||
                !dg__grow(g, (void **)&lp->lfree, lp->cap, cap, sizeof(int32_t)) ||
                !dg__grow(g, (void **)&lp->pend, lp->cap, cap, sizeof(int32_t)))
                return dg__oom(g, "a device's page numbers");
            lp->cap = cap;
        }
        l = (int32_t)lp->hw++;
    }
    lp->glob[l] = gp;
    *out = l;
    return DG_OK;
}

/* The cuts for g->ndev devices, balanced by out-degree + in-degree + 1 (multiples of
   DG__DIR_BLOCK), set with dg__shard_set. */
static dg_status dg__shard_plan(dg_graph *g) {
    int32_t b[DG_MAX_DEVICES];
    const int n = g->ndev;
    const size_t N = g->id_bound, nb = (N + DG__DIR_BLOCK - 1) / DG__DIR_BLOCK;
    double tot = 0, acc = 0, *w;
    size_t v, k = 0;
    int c, si;
    dg_status st;
    if ((st = dg__fresh_all(g)) != DG_OK) return st;
    if (!(w = (double *)dg__alloc(g, (nb ? nb : 1) * sizeof *w))) return dg__oom(g, "the shards' plan");
    for (k = 0; k < nb; k++) w[k] = 0;
    for (v = 0; v < N; v++) {   /* each block's weight */
        double x = 1;
        if (dg__alive(g, (dg_vertex)v)) for (si = 0; si < g->nstores; si++) x += dg__deg(g, &g->st[si], (dg_vertex)v);
        w[v / DG__DIR_BLOCK] += x;
        tot += x;
    }
    for (c = 1, k = 0; c < n; c++) {   /* cut c at the first block past c / n of the weight (or after the last) */
        while (k < nb && acc + w[k] <= tot * c / n) acc += w[k++];
        if (k < nb && acc < tot * c / n) acc += w[k++];
        b[c - 1] = (int32_t)(k * DG__DIR_BLOCK);
        if (b[c - 1] <= (c > 1 ? b[c - 2] : 0)) b[c - 1] = (c > 1 ? b[c - 2] : 0) + (int32_t)DG__DIR_BLOCK;
    }
    dg__free(g, w);
    if ((st = dg__shard_set(g, b, n)) != DG_OK) return st;
    g->shard_bound = N;
    return DG_OK;
}

/* The pages' local numbers and devices cover store s's pages (new ones on no device). */
static dg_status dg__shard_maps(dg_graph *g, dg__store *s) {
    if (s->ploc_cap >= s->page_cap) return DG_OK;
    if (!dg__grow(g, (void **)&s->ploc, s->ploc_cap, s->page_cap, sizeof(int32_t)) ||
        !dg__grow(g, (void **)&s->pdev, s->ploc_cap, s->page_cap, 1))
        return dg__oom(g, "the pages' devices");
    memset(s->pdev + s->ploc_cap, 0xff, s->page_cap - s->ploc_cap);
    s->ploc_cap = s->page_cap;
    return DG_OK;
}

/* Everything sent again: no page on any device, every page and directory block marked. */
static dg_status dg__shard_reset(dg_graph *g) {
    int i, si;
    size_t v;
    for (si = 0; si < g->nstores; si++) {
        dg__store *s = &g->st[si];
        int32_t p;
        if (dg__shard_maps(g, s) != DG_OK) return DG_ERR_OUT_OF_MEMORY;
        if (s->ploc_cap) memset(s->pdev, 0xff, s->ploc_cap);
        for (p = 0; p < (int32_t)s->page_hw; p++) dg__touch(s, p);
    }
    for (v = 0; v < g->id_bound; v += DG__DIR_BLOCK) dg__dir_mark(&g->st[0], (dg_vertex)v);
    for (i = 0; i < g->ndev; i++) {
        dg__dev *d = g->devs[i];
        for (si = 0; si < 2; si++) d->lp[si].hw = d->lp[si].nfree = d->lp[si].npend = 0;
        d->dir_filled = 0;
        d->uploaded = 0;
    }
    return DG_OK;
}

/* Each changed page of store si to the device of its shard: a page whose shard changed (or
   that was freed) leaves its device (its local page freed after the sync), and one new to a
   device gets a local page there and goes whole. */
static dg_status dg__shard_route(dg_graph *g, int si) {
    dg__store *s = &g->st[si];
    size_t i;
    if (dg__shard_maps(g, s) != DG_OK) return DG_ERR_OUT_OF_MEMORY;
    for (i = 0; i < s->changed_pages; i++) {
        const int32_t p = s->dlist[i];
        const int o = s->idx[p].first >= 0 ? dg__shard_of(g, s->idx[p].first) : -1;
        if (s->pdev[p] != 0xff && s->pdev[p] != o) {
            dg__lpages *lp = &g->devs[s->pdev[p]]->lp[si];
            lp->pend[lp->npend++] = s->ploc[p];
            lp->glob[s->ploc[p]] = -1;
            s->pdev[p] = 0xff;
        }
        if (o >= 0 && s->pdev[p] == 0xff) {
            dg_status st = dg__lp_take(g, &g->devs[o]->lp[si], p, &s->ploc[p]);
            if (st != DG_OK) return st;
            s->pdev[p] = (uint8_t)o;
            s->ph[p].segs = ~(uint64_t)0;   /* (new there: whole) */
            s->ph[p].dirty |= DG__DIRTY_IDX;
        }
    }
    return DG_OK;
}

/* Stages the LA-table segment at tab of store si for the current device, its page numbers
   made the device's. */
static dg_status dg__shard_stage_la(dg_graph *g, const dg__store *s, cl_mem dst, int32_t tab) {
    int32_t buf[256];
    size_t len = (size_t)s->latab[tab] + 1, j, k, c;
    dg_status st;
    for (j = 0; j < len; j += c) {
        c = len - j < 256 ? len - j : 256;
        for (k = 0; k < c; k++) {
            int32_t x = s->latab[(size_t)tab + j + k];
            buf[k] = j + k == 0 ? x : x >= 0 && (uint32_t)x < s->ploc_cap && s->pdev[x] != 0xff ? s->ploc[x] : -1;
        }
        if ((st = dg__stage(g, dst, (size_t)tab + j, buf, c)) != DG_OK) return st;
    }
    return DG_OK;
}

/* The current device's part of store si: its pages freed, its changed pages (at their local
   numbers), their index entries and LA-table segments. */
static dg_status dg__shard_sync_store(dg_graph *g, int si) {
    static const dg__pindex freed = { -1, -1, -1, -1 };
    dg__dev *d = g->dev;
    dg__store *s = &g->st[si];
    dg__dstore *m = &d->st[si];
    dg__lpages *lp = &d->lp[si];
    const uint8_t me = (uint8_t)d->id;
    dg_status st = DG_OK;
    size_t P = g->P, i, hw = lp->hw ? lp->hw : 1;
    DG__TRY(dg__buf_grow(g, &m->pool, hw * P * 4, d->uploaded ? m->pool.cap : 0));
    dg__pos_width(g);
    if (s->wpool) DG__TRY(dg__buf_grow(g, &m->wpool, hw * P * 4, d->uploaded ? m->wpool.cap : 0));
    DG__TRY(dg__buf_grow(g, &m->idx, hw * sizeof(dg__pindex), d->uploaded ? m->idx.cap : 0));
    DG__TRY(dg__buf_grow(g, &m->latab, (s->latab_len ? s->latab_len : 1) * 4, d->uploaded ? m->latab.cap : 0));
    for (i = 0; i < lp->npend; i++) DG__TRY(dg__stage(g, m->idx.m, (size_t)lp->pend[i] * 4, &freed, 4));
    for (i = 0; i < s->changed_pages; i++) {   /* (a buffer at a time: one scatter each) */
        const int32_t p = s->dlist[i];
        if (s->pdev[p] != me) continue;
        DG__TRY(dg__stage_page(g, s, m->pool.m, s->pool, p, s->ploc[p]));
        d->sync_pages++;
    }
    for (i = 0; s->wpool && i < s->changed_pages; i++) {
        const int32_t p = s->dlist[i];
        if (s->pdev[p] == me) DG__TRY(dg__stage_page(g, s, m->wpool.m, (const int32_t *)(const void *)s->wpool, p, s->ploc[p]));
    }
    for (i = 0; i < s->changed_pages; i++) {
        const int32_t p = s->dlist[i];
        if (s->pdev[p] == me && (s->ph[p].dirty & DG__DIRTY_IDX))
            DG__TRY(dg__stage(g, m->idx.m, (size_t)s->ploc[p] * 4, &s->idx[p], 4));
    }
    if (s->latab_moved) {   /* every segment of its lists */
        int32_t p;
        for (p = 0; p < (int32_t)s->page_hw; p++)
            if (s->pdev[p] == me && s->idx[p].la_pos == 0 && s->idx[p].la_tab >= 0)
                DG__TRY(dg__shard_stage_la(g, s, m->latab.m, s->idx[p].la_tab));
    } else {                /* those of its large lists whose pages changed (each once) */
        for (i = 0; i < s->changed_pages; i++) {
            int32_t p = s->dlist[i], p0;
            if (s->pdev[p] != me || s->idx[p].la_len < 0 || s->idx[p].first < 0) continue;
            p0 = dg__la_first(s, p);
            if (s->idx[p0].la_tab < 0 || (s->ph[p0].dirty & 2)) continue;
            s->ph[p0].dirty |= 2;
            DG__TRY(dg__shard_stage_la(g, s, m->latab.m, s->idx[p0].la_tab));
        }
    }
done:
    for (i = 0; i < s->changed_pages; i++) {
        int32_t p = s->dlist[i];
        if (s->idx[p].la_len >= 0 && s->idx[p].first >= 0) s->ph[dg__la_first(s, p)].dirty &= ~2u;
    }
    return st;
}

/* The current device's directory: the changed blocks of its ids, page numbers made its own
   (the others' ids: -1, set where the buffer grew). */
static dg_status dg__shard_sync_dir(dg_graph *g) {
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    const size_t ds = 2 * (size_t)g->nstores, nv = g->id_bound ? g->id_bound : 1;
    int32_t buf[DG__DIR_BLOCK * 4];
    size_t i, v;
    int si;
    DG__TRY(dg__buf_grow(g, &d->dir, nv * ds * 4, d->uploaded ? d->dir.cap : 0));
    if (d->dir_filled > d->dir.cap) d->dir_filled = 0;   /* (a new buffer) */
    if (d->dir_filled < d->dir.cap) {
        DG__TRY(dg__fill_bytes(g, d->dir.m, 0xff, d->dir_filled, d->dir.cap - d->dir_filled));
        d->dir_filled = d->dir.cap;
    }
    for (i = 0; i < g->dd.n; i++) {
        size_t b = g->dd.list[i], lo = b * DG__DIR_BLOCK, hi = lo + DG__DIR_BLOCK;
        if (hi > g->id_bound) hi = g->id_bound;
        if (lo >= hi || (int32_t)lo < d->lo || (int32_t)lo >= d->hi) continue;
        for (v = lo; v < hi; v++)
            for (si = 0; si < g->nstores; si++) {
                const dg__store *s = &g->st[si];
                int32_t p = g->dir[v * ds + 2 * (size_t)si];
                buf[(v - lo) * ds + 2 * (size_t)si] = p >= 0 ? s->ploc[p] : -1;
                buf[(v - lo) * ds + 2 * (size_t)si + 1] = g->dir[v * ds + 2 * (size_t)si + 1];
            }
        DG__TRY(dg__stage(g, d->dir.m, lo * ds, buf, (hi - lo) * ds));
    }
done:
    return st;
}

/* The sync of a graph over several devices: routing, then each device's part, flushed. */
static dg_status dg__shard_sync(dg_graph *g) {
    dg_status st = DG_OK;
    int i, si;
    DG_ASSERT(!g->st[0].nstale && !g->st[1].nstale && !g->dd.ndev);   /* (no device batches) */
    if (!g->cut || g->id_bound > 2 * g->shard_bound + (size_t)DG__DIR_BLOCK * (size_t)g->ndev) {
        DG__TRY(dg__shard_plan(g));
        for (i = 0; i < g->ndev; i++) g->devs[i]->uploaded = 0;
    }
    if (!g->devs[0]->uploaded) DG__TRY(dg__shard_reset(g));
    for (si = 0; si < g->nstores; si++) DG__TRY(dg__shard_route(g, si));
    for (i = 0; i < g->ndev; i++) {
        dg__dev *d = g->dev = g->devs[i];
        d->lo = g->cut[i];
        d->hi = (size_t)g->cut[i + 1] < g->id_bound ? g->cut[i + 1] : (int32_t)g->id_bound;
        if (d->hi < d->lo) d->hi = d->lo;
        d->sync_bytes = 0; d->sync_pages = 0;
        for (si = 0; si < g->nstores; si++) DG__TRY(dg__shard_sync_store(g, si));
        DG__TRY(dg__shard_sync_dir(g));
        DG__TRY(dg__stage_flush(g));
        clFlush(d->queue);   /* (the devices take their parts together: the staging write blocked) */
    }
    for (i = 0; i < g->ndev; i++) {   /* the freed local pages may be handed out now */
        dg__dev *d = g->devs[i];
        for (si = 0; si < 2; si++) {
            dg__lpages *lp = &d->lp[si];
            if (lp->npend) memcpy(lp->lfree + lp->nfree, lp->pend, lp->npend * sizeof(int32_t));
            lp->nfree += lp->npend;
            lp->npend = 0;
        }
        dg__sync_sent(d);
    }
done:
    if (st != DG_OK) { g->dev->st_used = 0; g->dev->ndesc = 0; g->dev->ngrp = 0; }   /* (marks kept) */
    g->dev = g->devs[0];
    return st;
}

/* Forgets the marks of what a sync sent. */
static void dg__sync_forget(dg_graph *g) {
    size_t i;
    int si;
    for (si = 0; si < g->nstores; si++) {
        dg__store *s = &g->st[si];
        for (i = 0; i < s->changed_pages; i++) { s->ph[s->dlist[i]].dirty = 0; s->ph[s->dlist[i]].segs = 0; }
        s->changed_pages = 0;
        s->latab_moved = 0;
    }
    for (i = 0; i < g->dd.n; i++) g->dd.blk[g->dd.list[i]] = 0;
    g->dd.n = 0;
}

static dg_status dg__sync_all(dg_graph *g) {
    dg__dev *d = NULL;
    dg_status st = DG_OK;
    double tr = 0;                    /* DYNGRAPH_TRACE_UPDATE */
    size_t i, ds = 2 * (size_t)g->nstores, nv;
    int si;
    if (!g->dev) DG__TRY(dg__dev_init(g));
    d = g->dev;
    if (d->uploaded && g->st[0].changed_pages == 0 && g->st[1].changed_pages == 0 && g->dd.n == 0 &&
        !g->st[0].latab_moved && !g->st[1].latab_moved) {
        for (i = 0; i < (size_t)(g->ndev > 1 ? g->ndev : 1); i++) {   /* (nothing to send, to any device) */
            dg__dev *x = g->ndev > 1 ? g->devs[i] : d;
            x->last_sync_bytes = x->last_sync_pages = 0;
        }
        return DG_OK;
    }
    if (g->ndev > 1) {
        DG__TRY(dg__shard_sync(g));
        dg__sync_forget(g);
        return DG_OK;
    }
    dg__up_trace(g, &tr, "sync-start");
    d->sync_bytes = 0; d->sync_pages = 0;
    for (si = 0; si < g->nstores; si++) DG__TRY(dg__sync_store(g, si));
    nv = g->id_bound ? g->id_bound : 1;
    DG__TRY(dg__buf_grow(g, &d->dir, nv * ds * 4, d->uploaded ? d->dir.cap : 0));
    for (i = 0; i < g->dd.n; i++) {
        size_t b = g->dd.list[i], lo = b * DG__DIR_BLOCK, hi = lo + DG__DIR_BLOCK;
        DG_ASSERT(!g->dd.dev[b]);
        if (hi > g->id_bound) hi = g->id_bound;
        if (lo < hi) DG__TRY(dg__stage(g, d->dir.m, lo * ds, g->dir + lo * ds, (hi - lo) * ds));
    }
    dg__up_trace(g, &tr, "sync-stage");
#ifdef DYNGRAPH_TRACE_UPDATE
    fprintf(stderr, "  [update] (sync: %zu pages, %zu bytes, %zu directory blocks, LA table %s)\n", d->sync_pages,
            d->sync_bytes, g->dd.n, g->st[0].latab_moved || g->st[1].latab_moved ? "whole" : "in part");
#endif
    DG__TRY(dg__stage_flush(g));
    dg__up_trace(g, &tr, "sync-flush");
    dg__sync_forget(g);   /* everything is on its way */
    dg__sync_sent(d);
done:
    if (st != DG_OK && d) { d->st_used = 0; d->ndesc = 0; d->ngrp = 0; }  /* marks kept: all sent again */
    return st;
}
/* The sync of every device operation but those a graph over several devices has (dg_sync,
   dg_bfs, dg_validate_device, the context and queue of the first device, dg_host_alloc, the
   primitives on the caller's buffers: they call dg__sync_all): the others refuse such a graph. */
static dg_status dg__sync(dg_graph *g) {
    int n = g->ndev > 1 ? g->ndev : g->dev ? 1 : dg__devices_n(g);
    if (n > 1)
        return dg__fail(g, DG_ERR_UNSUPPORTED, "not available on a graph over %d devices (only dg_bfs TOP_DOWN and "
                        "DIRECTION_OPT, dg_sync, dg_validate_device and host calls: manual section 11)", n);
    return dg__sync_all(g);
}

static void dg__dev_stats(const dg_graph *g, dg_stats *out) {
    int m, i;
    if (!g->dev) return;
    out->syncs = g->dev->syncs;
    for (i = 0; i < (g->ndev > 1 ? g->ndev : 1); i++) {   /* (several devices: their sums) */
        const dg__dev *d = g->ndev > 1 ? g->devs[i] : g->dev;
        out->last_sync_bytes += d->last_sync_bytes;
        out->last_sync_pages += d->last_sync_pages;
        out->upload_bytes += d->upload_bytes;
        out->device_bytes += d->bytes;
        for (m = 0; m < DG__MOD_COUNT; m++) out->module_bytes += dg__module_bytes(d, m);
    }
    out->programs_built = g->dev->programs_built;
    out->batch_arcs_device = g->dev->batch_dev;
    out->batch_arcs_host = 0;
    out->batch_room_pages = g->dev->batch_room;
    out->wide_positions = g->dev->pos64;
}

DG_API dg_status dg_sync(dg_graph *g) {
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    return dg__sync_all(g);
}
DG_API cl_context dg_cl_context(dg_graph *g) { return g && dg__sync_all(g) == DG_OK ? g->dev->ctx : NULL; }
DG_API cl_command_queue dg_cl_queue(dg_graph *g) { return g && dg__sync_all(g) == DG_OK ? g->dev->queue : NULL; }
DG_API cl_device_id dg_cl_device(dg_graph *g) { return g && dg__sync_all(g) == DG_OK ? g->dev->device : NULL; }
DG_API const char *dg_device_name(const dg_graph *g) { return g && g->dev ? g->dev->name : ""; }

/* dg_host_alloc: a buffer of CL_MEM_ALLOC_HOST_PTR, mapped for good (NVIDIA's driver page-locks
   such buffers and transfers to and from the mapped pointer by DMA); dg__read_out recognises
   the blocks and reads straight into them. */
/* A pinned block of g->dev (dg_host_alloc's, without its sync: the library's own blocks). */
static void *dg__host_block(dg_graph *g, size_t bytes, dg_status *st) {
    dg__dev *d = g->dev;
    dg__hostblk b;
    cl_int e;
    if (d->nhblk == d->hblk_cap && !dg__grow(g, (void **)&d->hblk, d->hblk_cap, d->hblk_cap ? 2 * d->hblk_cap : 4,
                                             sizeof *d->hblk)) {
        *st = dg__oom(g, "dg_host_alloc");
        return NULL;
    }
    if (d->nhblk == d->hblk_cap) d->hblk_cap = d->hblk_cap ? 2 * d->hblk_cap : 4;
    if ((*st = dg__cl_buffer(g, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, "dg_host_alloc", &b.m)) != DG_OK) return NULL;
    b.p = (unsigned char *)clEnqueueMapBuffer(d->queue, b.m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL,
                                              NULL, &e);
    if (e != CL_SUCCESS || !b.p) {
        clReleaseMemObject(b.m);
        *st = dg__clfail(g, e, "clEnqueueMapBuffer (dg_host_alloc)");
        return NULL;
    }
    b.n = bytes;
    d->hblk[d->nhblk++] = b;
    *st = DG_OK;
    return b.p;
}
DG_API void *dg_host_alloc(dg_graph *g, size_t bytes) {
    dg_status st;
    if (!g) return NULL;
    if (bytes == 0) { dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_host_alloc: 0 bytes"); return NULL; }
    if (dg__sync_all(g) != DG_OK) return NULL;
    return dg__host_block(g, bytes, &st);
}
DG_API void dg_host_free(dg_graph *g, void *p) {
    dg__dev *d = g ? g->dev : NULL;
    size_t i;
    if (!p || !d) return;
    for (i = 0; i < d->nhblk && d->hblk[i].p != (unsigned char *)p; i++) {}
    if (i == d->nhblk) return;
    clEnqueueUnmapMemObject(d->queue, d->hblk[i].m, d->hblk[i].p, 0, NULL, NULL);
    clFinish(d->queue);
    clReleaseMemObject(d->hblk[i].m);
    d->hblk[i] = d->hblk[--d->nhblk];
}
/* 1 if [p, p + n) lies in one of dg_host_alloc's blocks. */
static int dg__host_pinned(const dg__dev *d, const void *p, size_t n) {
    size_t i;
    for (i = 0; i < d->nhblk; i++)
        if ((const unsigned char *)p >= d->hblk[i].p && n <= d->hblk[i].n &&
            (size_t)((const unsigned char *)p - d->hblk[i].p) <= d->hblk[i].n - n) return 1;
    return 0;
}

/* An algorithm's output buffer from the caller (dist_buffer): of this graph's context and at
   least `bytes` long, else DG_ERR_INVALID_ARGUMENT naming fn. */
static dg_status dg__out_buffer_check(dg_graph *g, cl_mem m, size_t bytes, const char *fn) {
    cl_context c = NULL;
    size_t size = 0;
    if (clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof c, &c, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL) != CL_SUCCESS)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: dist_buffer is not an OpenCL buffer", fn);
    if (c != g->dev->ctx)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: dist_buffer belongs to another context than dg_cl_context(g)", fn);
    if (size < bytes)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: dist_buffer has %zu bytes, %zu needed", fn, size, bytes);
    return DG_OK;
}
/* Reads n bytes at offset off of buffer m into out (blocking); dg__cl_read: the first n. */
static dg_status dg__cl_read_at(dg_graph *g, cl_mem m, size_t off, size_t n, void *out) {
    cl_int e;
    if (n == 0) return DG_OK;
    e = clEnqueueReadBuffer(g->dev->queue, m, CL_TRUE, off, n, out, 0, NULL, NULL);
    return e == CL_SUCCESS ? DG_OK : dg__clfail(g, e, "clEnqueueReadBuffer");
}
static dg_status dg__cl_read(dg_graph *g, cl_mem m, size_t n, void *out) { return dg__cl_read_at(g, m, 0, n, out); }
/* Reads n bytes at offset off of buffer m into out, the results of an algorithm for the caller:
   small reads directly; large ones through the pinned staging buffer in halves, the device's copy of one half overlapping the host's
   memcpy of the other (a read into pageable memory runs at a fraction of the bus's speed:
   the driver copies through a bounce buffer of its own, one piece at a time). */
#ifndef DG__READ_PINNED_MIN               /* (tests set both small, to run every path on PoCL) */
#define DG__READ_PINNED_MIN (1u << 20)    /* smaller reads go straight to the caller */
#endif
#ifndef DG__READ_PINNED_PIECE
#define DG__READ_PINNED_PIECE (DG__STAGE_BYTES / 2)
#endif
static dg_status dg__read_out(dg_graph *g, cl_mem m, size_t off, size_t n, void *out) {
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    size_t half = DG__READ_PINNED_PIECE, at = 0, k, len;
    cl_event ev[2] = { NULL, NULL };
    if (n == 0) return DG_OK;
    if (dg__host_pinned(d, out, n)) {            /* the caller's pinned block: straight in */
        g->dev->reads_direct++;
        DG__CL(clEnqueueReadBuffer(d->queue, m, CL_TRUE, off, n, out, 0, NULL, NULL));
        goto done;
    }
    if (n < DG__READ_PINNED_MIN || !d->pin_ptr || half == 0 || 2 * half > d->st_bytes) {
        DG__CL(clEnqueueReadBuffer(d->queue, m, CL_TRUE, off, n, out, 0, NULL, NULL));
        goto done;
    }
    len = n < half ? n : half;
    DG__CL(clEnqueueReadBuffer(d->queue, m, CL_FALSE, off, len, d->pin_ptr, 0, NULL, &ev[0]));
    for (k = 0; at < n; k++) {
        size_t next = at + len, nlen = n - next < half ? n - next : half;
        cl_event *e = &ev[k & 1];
        if (next < n)                             /* the next half on its way ... */
            DG__CL(clEnqueueReadBuffer(d->queue, m, CL_FALSE, off + next, nlen, d->pin_ptr + ((k + 1) & 1) * half,
                                       0, NULL, &ev[(k + 1) & 1]));
        DG__CL(clWaitForEvents(1, e));            /* ... while this one is copied out */
        clReleaseEvent(*e);
        *e = NULL;
        memcpy((unsigned char *)out + at, d->pin_ptr + (k & 1) * half, len);
        at = next;
        len = nlen;
    }
done:
    if (ev[0] || ev[1]) {                         /* a failure with reads in flight */
        clFinish(d->queue);
        if (ev[0]) clReleaseEvent(ev[0]);
        if (ev[1]) clReleaseEvent(ev[1]);
    }
    return st;
}
/* Reads n bytes at offset off of buffer m back into a fresh host block (NULL on failure). */
static void *dg__read_back(dg_graph *g, cl_mem m, size_t off, size_t n, dg_status *st) {
    void *h = dg__alloc(g, n ? n : 1);
    cl_int e;
    if (!h) { *st = dg__oom(g, "read-back"); return NULL; }
    if (n && (e = clEnqueueReadBuffer(g->dev->queue, m, CL_TRUE, off, n, h, 0, NULL, NULL)) != CL_SUCCESS) {
        *st = dg__clfail(g, e, "clEnqueueReadBuffer");
        dg__free(g, h);
        return NULL;
    }
    return h;
}

/* dg_validate_device on several devices (>>shard): each device's pages, index entries, LA
   segments and directory against the host's, through its page numbers. */
static dg_status dg__shard_validate(dg_graph *g) {
    const size_t ds = 2 * (size_t)g->nstores;
    dg_status st = DG_OK;
    int di, si;
    size_t i, k;
    for (di = 0; di < g->ndev && st == DG_OK; di++) {
        dg__dev *d = g->dev = g->devs[di];
        int32_t *pool = NULL, *dir = NULL;
        float *wpool = NULL;
        dg__pindex *idx = NULL;
        int32_t *la = NULL;
        for (si = 0; si < g->nstores && st == DG_OK; si++) {
            dg__store *s = &g->st[si];
            dg__lpages *lp = &d->lp[si];
            dg__dstore *m = &d->st[si];
            size_t P = g->P;
            int32_t p;
            for (p = 0; p < (int32_t)s->page_hw && st == DG_OK; p++)   /* the host's pages: each where it belongs */
                if (s->idx[p].first >= 0 && dg__shard_of(g, s->idx[p].first) == di &&
                    (s->pdev[p] != di || s->ploc[p] < 0 || (uint32_t)s->ploc[p] >= lp->hw || lp->glob[s->ploc[p]] != p))
                    st = dg__fail(g, DG_ERR_CORRUPT, "device %d lacks store %d page %d (of shard %d)", di, si, (int)p, di);
            if (st != DG_OK || !lp->hw) break;
            if (!(pool = (int32_t *)dg__read_back(g, m->pool.m, 0, lp->hw * P * 4, &st))) break;
            if (s->wpool && !(wpool = (float *)dg__read_back(g, m->wpool.m, 0, lp->hw * P * 4, &st))) break;
            if (!(idx = (dg__pindex *)dg__read_back(g, m->idx.m, 0, lp->hw * sizeof *idx, &st))) break;
            if (s->latab_len && !(la = (int32_t *)dg__read_back(g, m->latab.m, 0, s->latab_len * 4, &st))) break;
            for (i = 0; i < lp->hw && st == DG_OK; i++) {
                const int32_t gp = lp->glob[i];
                const dg__pindex *x;
                if (gp < 0) {   /* a free local page */
                    if (idx[i].first >= 0) st = dg__fail(g, DG_ERR_CORRUPT, "device %d store %d: free page %zu has an owner", di, si, i);
                    continue;
                }
                x = &s->idx[gp];
                if (s->pdev[gp] != di || (size_t)s->ploc[gp] != i)
                    st = dg__fail(g, DG_ERR_CORRUPT, "device %d store %d: page %zu holds host page %d, which is elsewhere", di, si, i, (int)gp);
                else if (memcmp(&idx[i], x, sizeof *x) != 0)
                    st = dg__fail(g, DG_ERR_CORRUPT, "device %d copy differs: store %d index entry of page %d", di, si, (int)gp);
                else if (memcmp(pool + i * P, DG__PAGE(g, s, gp), P * 4) != 0) {
                    for (k = 0; pool[i * P + k] == DG__PAGE(g, s, gp)[k]; k++) {}
                    st = dg__fail(g, DG_ERR_CORRUPT, "device %d copy differs: store %d page %d (local %zu) entry %zu (%d, not %d)",
                                  di, si, (int)gp, i, k, (int)pool[i * P + k], (int)DG__PAGE(g, s, gp)[k]);
                }
                else if (wpool && memcmp(wpool + i * P, s->wpool + (size_t)gp * P, P * 4) != 0)
                    st = dg__fail(g, DG_ERR_CORRUPT, "device %d copy differs: weights of store %d page %d", di, si, (int)gp);
                else if (la && x->la_pos == 0 && x->la_tab >= 0)
                    for (k = 0; k <= (size_t)x->la_len && st == DG_OK; k++) {
                        int32_t h = s->latab[(size_t)x->la_tab + k];
                        if (k) h = s->ploc[h];
                        if (la[(size_t)x->la_tab + k] != h)
                            st = dg__fail(g, DG_ERR_CORRUPT, "device %d copy differs: store %d LA table of the list at page %d", di, si, (int)gp);
                    }
            }
            dg__free(g, pool); dg__free(g, wpool); dg__free(g, idx); dg__free(g, la);
            pool = NULL; wpool = NULL; idx = NULL; la = NULL;
        }
        dg__free(g, pool); dg__free(g, wpool); dg__free(g, idx); dg__free(g, la);
        if (st != DG_OK || !g->id_bound) continue;
        if (!(dir = (int32_t *)dg__read_back(g, d->dir.m, 0, g->id_bound * ds * 4, &st))) break;
        for (i = 0; i < g->id_bound * ds && st == DG_OK; i++) {
            const size_t v = i / ds, e = i % ds;
            int32_t want = -1;
            if ((int32_t)v >= d->lo && (int32_t)v < d->hi) {
                want = g->dir[i];
                if (!(e & 1) && want >= 0) want = g->st[e / 2].ploc[want];
            }
            if (dir[i] != want)
                st = dg__fail(g, DG_ERR_CORRUPT, "device %d copy differs: directory of vertex %zu (%d, not %d)", di, v, (int)dir[i], (int)want);
        }
        dg__free(g, dir);
    }
    g->dev = g->devs[0];
    return st;
}

DG_API dg_status dg_validate_device(dg_graph *g) {
    dg_status st;
    int si;
    size_t i, ds;
    void *h = NULL;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__fresh_all(g)) != DG_OK || (st = dg__sync_all(g)) != DG_OK) return st;
    if (g->ndev > 1) return dg__shard_validate(g);
    ds = 2 * (size_t)g->nstores;
    for (si = 0; si < g->nstores && st == DG_OK; si++) {
        dg__store *s = &g->st[si];
        dg__dstore *m = &g->dev->st[si];
        size_t n = (size_t)s->page_hw * g->P;
        if (!(h = dg__read_back(g, m->pool.m, 0, n * 4, &st))) break;
        for (i = 0; i < n && (((int32_t *)h)[i] == s->pool[i] || s->idx[i / g->P].first < 0); i++) {}   /* (free pages: any) */
        if (i < n) st = dg__fail(g, DG_ERR_CORRUPT, "device copy differs: store %d page %zu entry %zu (%d on the device, %d on the host)",
                                 si, i / g->P, i % g->P, (int)((int32_t *)h)[i], (int)s->pool[i]);
        dg__free(g, h);
        if (st == DG_OK && s->wpool) {
            if (!(h = dg__read_back(g, m->wpool.m, 0, n * 4, &st))) break;
            for (i = 0; i < s->page_hw && (s->idx[i].first < 0 ||
                 memcmp((float *)h + i * g->P, s->wpool + i * g->P, g->P * 4) == 0); i++) {}
            if (i < s->page_hw) st = dg__fail(g, DG_ERR_CORRUPT, "device copy differs: weights of store %d page %zu", si, i);
            dg__free(g, h);
        }
        if (st == DG_OK) {
            if (!(h = dg__read_back(g, m->idx.m, 0, (size_t)s->page_hw * sizeof(dg__pindex), &st))) break;
            for (i = 0; i < s->page_hw && memcmp((dg__pindex *)h + i, s->idx + i, sizeof(dg__pindex)) == 0; i++) {}
            if (i < s->page_hw) st = dg__fail(g, DG_ERR_CORRUPT, "device copy differs: store %d index entry of page %zu", si, i);
            dg__free(g, h);
        }
        if (st == DG_OK && s->latab_len) {
            if (!(h = dg__read_back(g, m->latab.m, 0, s->latab_len * 4, &st))) break;
            for (i = 0; i < s->page_hw && st == DG_OK; i++) {
                const dg__pindex *x = &s->idx[i];
                if (x->first >= 0 && x->la_pos == 0 && x->la_tab >= 0 &&
                    memcmp((int32_t *)h + x->la_tab, s->latab + x->la_tab, ((size_t)x->la_len + 1) * 4) != 0)
                    st = dg__fail(g, DG_ERR_CORRUPT, "device copy differs: store %d LA table of the list at page %zu", si, i);
            }
            dg__free(g, h);
        }
    }
    if (st == DG_OK && g->id_bound) {
        if ((h = dg__read_back(g, g->dev->dir.m, 0, g->id_bound * ds * 4, &st)) != NULL) {
            for (i = 0; i < g->id_bound * ds && ((int32_t *)h)[i] == g->dir[i]; i++) {}
            if (i < g->id_bound * ds)
                st = dg__fail(g, DG_ERR_CORRUPT, "device copy differs: directory of vertex %zu", i / ds);
            dg__free(g, h);
        }
    }
    return st;
}

/* =========================================================================
   Primitives: scan, frontiers, advance, filter, compute (manual section 12)   >>prim
   ========================================================================= */

/* Exclusive scan of n values (in -> out, which may be the same): uint32, or with `pos` the
   programs' positions (dg_pos: 8 bytes under DG_POS64, dg__pos_bytes); with `total` (a buffer,
   may be NULL) receiving the sum. Blocks of 4 x wg values, then the block sums recursively:
   three launches; up to dg__scan_small_blocks blocks of uint32, one work-group goes through
   them in one launch (a batch of 1,000 edges scans 2,001 values three times). */
static size_t dg__scan_small_blocks = 8;   /* (a test hook) */
static dg_status dg__scan_of(dg_graph *g, cl_mem in, cl_mem out, size_t n, cl_mem total, int pos, int level) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    size_t block = DG_SCAN_ITEMS * (size_t)d->wg, nb = (n + block - 1) / block;
    size_t es = pos ? dg__pos_bytes(d) : 4;
    cl_kernel k = NULL;
    cl_uint un = (cl_uint)n;
    cl_mem tot = nb == 1 ? total : NULL, sums;
    if (n == 0) return DG_OK;
    if (!pos && level == 0 && nb > 1 && nb <= dg__scan_small_blocks) {   /* one work-group */
        DG__TRY(dg__kernel(g, DG__K_SCAN_SMALL, 0, &k));
        DG__TRY(dg__args(g, k, DG__A(in), DG__A(out), DG__A(un), DG__A(total), DG__END));
        return dg__launch(g, k, d->wg, d->wg);
    }
    if (level >= 8 || n > 0xffffffffu) return dg__fail(g, DG_ERR_LIMIT, "scan of %zu values: more than 2^32", n);
    DG__TRY(dg__buf_fit(g, &cs->b.scan_sums[level], nb * es));
    sums = cs->b.scan_sums[level].m;
    DG__TRY(dg__kernel(g, pos ? DG__K_SCAN_POS_BLOCKS : DG__K_SCAN_BLOCKS, 0, &k));
    DG__TRY(dg__args(g, k, DG__A(in), DG__A(out), DG__A(sums), DG__A(un), DG__A(tot), DG__END));
    DG__TRY(dg__launch(g, k, nb * d->wg, d->wg));
    if (nb > 1) {
        DG__TRY(dg__scan_of(g, sums, sums, nb, total, pos, level + 1));
        DG__TRY(dg__kernel(g, pos ? DG__K_SCAN_POS_ADD : DG__K_SCAN_ADD, 0, &k));
        DG__TRY(dg__args(g, k, DG__A(out), DG__A(sums), DG__A(un), DG__END));
        DG__TRY(dg__launch(g, k, n, d->wg));
    }
done:
    return st;
}
static dg_status dg__scan(dg_graph *g, cl_mem in, cl_mem out, size_t n, cl_mem total, int level) {
    return dg__scan_of(g, in, out, n, total, 0, level);
}

static dg_status dg__read_u32(dg_graph *g, cl_mem m, size_t index, uint32_t *out) {
    cl_int e = clEnqueueReadBuffer(g->dev->queue, m, CL_TRUE, index * 4, 4, out, 0, NULL, NULL);
    return e == CL_SUCCESS ? DG_OK : dg__clfail(g, e, "clEnqueueReadBuffer");
}
/* A blocking write of bytes from host memory p to the start of m. */
static dg_status dg__clwrite(dg_graph *g, cl_mem m, const void *p, size_t bytes) {
    cl_int e = clEnqueueWriteBuffer(g->dev->queue, m, CL_TRUE, 0, bytes, p, 0, NULL, NULL);
    return e == CL_SUCCESS ? DG_OK : dg__clfail(g, e, "clEnqueueWriteBuffer");
}
static dg_status dg__write_u32(dg_graph *g, cl_mem m, size_t index, uint32_t v) {
    cl_int e = clEnqueueWriteBuffer(g->dev->queue, m, CL_TRUE, index * 4, 4, &v, 0, NULL, NULL);
    return e == CL_SUCCESS ? DG_OK : dg__clfail(g, e, "clEnqueueWriteBuffer");
}
/* Fills n int32 of m with v (tracked as a kernel, so it is part of a timed run). */
static dg_status dg__fill(dg_graph *g, cl_mem m, int32_t v, size_t n) {
    dg_status st = DG_OK;
    cl_kernel k = NULL;
    cl_uint un = (cl_uint)n;
    DG__TRY(dg__kernel(g, DG__K_FILL_INT, 0, &k));
    DG__TRY(dg__args(g, k, DG__A(m), DG__A(v), DG__A(un), DG__END));
    DG__TRY(dg__launch(g, k, n, g->dev->wg));
done:
    return st;
}

/* b holds at least n words, all v (a per-vertex result before a search). */
static dg_status dg__fit_fill(dg_graph *g, dg__buf *b, int32_t v, size_t n) {
    dg_status st = dg__buf_fit(g, b, n * 4);
    return st != DG_OK ? st : dg__fill(g, b->m, v, n);
}

/* o (size bytes) is the caller's options opt, or zero (defaults); the ids fit the kernels'
   int32 (fn: the entry point, for the message). The sources are checked by dg__seeds_make. */
static dg_status dg__search_args(dg_graph *g, const char *fn, const void *opt, void *o, size_t size) {
    if (opt)
        memcpy(o, opt, size);
    else
        memset(o, 0, size);
    if (g->id_bound > 0x7fffffffu)
        return dg__fail(g, DG_ERR_LIMIT, "%s: too many vertex ids", fn);
    return DG_OK;
}

/* ---- the seeds of a search: sources and targets (manual sections 13, 14) ----
   The seeds: one array, uploaded as it is: the distinct sources, then the distinct targets
   that are not sources. `targets` says targets were given (nt is 0 when all of them are
   sources). */
typedef struct dg__seeds {
    int32_t *v;
    size_t ns, nt;
    int targets;
} dg__seeds;
static void dg__seeds_free(dg_graph *g, dg__seeds *S) {
    dg__free(g, S->v);
    S->v = NULL;
}
/* Checks one seed list (`what`: "source", "target") and appends it to S->v at *at. */
static dg_status dg__seeds_take(dg_graph *g, const char *fn, const char *what, const dg_vertex *a,
                                size_t n, dg__seeds *S, size_t *at) {
    size_t i;
    char where[64];
    dg_status st;
    if (n && !a)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: %s_count %lu with no %ss", fn, what, (unsigned long)n, what);
    snprintf(where, sizeof where, "%s (%s)", fn, what);
    for (i = 0; i < n; i++) {
        if ((st = dg__check_vertex(g, a[i], where)) != DG_OK) return st;
        S->v[(*at)++] = a[i];
    }
    return DG_OK;
}
/* Sorts v[0..n) and drops repeats; returns the count left. */
static size_t dg__sort_unique_i32(int32_t *v, size_t n) {
    size_t i, m = 0;
    if (n > 1) qsort(v, n, sizeof *v, dg__cmp_i32);
    for (i = 0; i < n; i++)
        if (m == 0 || v[i] != v[m - 1]) v[m++] = v[i];
    return m;
}
/* The seeds of a search from source (-1: none, when sources are given) and sources[0..ns),
   towards targets[0..nt). Every one must be a live vertex. */
static dg_status dg__seeds_make(dg_graph *g, const char *fn, dg_vertex source, const dg_vertex *sources,
                                size_t ns, const dg_vertex *targets, size_t nt, dg__seeds *S) {
    dg_status st = DG_OK;
    size_t at = 0, i, k;
    memset(S, 0, sizeof *S);
    if (source == -1 && ns == 0)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: no source (source -1 and no sources)", fn);
    if (ns > 0x7fffffffu || nt > 0x7fffffffu || ns + nt > ((size_t)-1) / 4 - 1)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: too many sources or targets", fn);
    if (!(S->v = (int32_t *)dg__alloc(g, (1 + ns + nt) * sizeof *S->v)))
        return dg__oom(g, fn);
    if (source != -1) {
        DG__TRY(dg__seeds_take(g, fn, "source", &source, 1, S, &at));
    }
    DG__TRY(dg__seeds_take(g, fn, "source", sources, ns, S, &at));
    S->ns = dg__sort_unique_i32(S->v, at);
    at = S->ns;
    DG__TRY(dg__seeds_take(g, fn, "target", targets, nt, S, &at));
    S->targets = nt > 0;
    k = dg__sort_unique_i32(S->v + S->ns, at - S->ns);
    for (i = 0, S->nt = 0; i < k; i++) {
        int32_t t = S->v[S->ns + i];
        if (!bsearch(&t, S->v, S->ns, sizeof t, dg__cmp_i32)) S->v[S->ns + S->nt++] = t;
    }
done:
    if (st != DG_OK) dg__seeds_free(g, S);
    return st;
}

/* The path to t in the tree of parents `parent` (device): *len = its vertices (0: t is not in
   the tree), path[0..min(*len, cap)) = the root ... t (path may be NULL: the length only). */
static dg_status dg__path(dg_graph *g, cl_mem parent, dg_vertex t, dg_vertex *path, size_t cap, size_t *len) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg_status st = DG_OK;
    size_t n = g->id_bound, c = path ? (cap < n ? cap : n) : 0;
    cl_uint un = (cl_uint)n, uc = (cl_uint)c;
    uint32_t m = 0;
    cl_int ct = t;
    DG__TRY(dg__buf_fit(g, &cs->b.path, (c + 1) * 4));
    DG__TRY(dg__run(g, DG__K_PATH_WALK, 1, DG__A(parent), DG__A(ct), DG__A(un), DG__A(cs->b.path.m),
                    DG__A(uc), DG__END));
    DG__TRY(dg__read_u32(g, cs->b.path.m, 0, &m));
    if (m > n) return dg__fail(g, DG_ERR_CORRUPT, "path: the tree of parents has a cycle");
    if (c > m) c = m;
    if (c) DG__CL(clEnqueueReadBuffer(g->dev->queue, cs->b.path.m, CL_TRUE, 4, c * 4, path, 0, NULL, NULL));
    if (len) *len = m;
done:
    return st;
}

DG_API dg_status dg_scan(dg_graph *g, cl_mem in, cl_mem out, size_t n, uint32_t *total) {
    dg__core_state *cs;
    dg_status st;
    uint32_t t = 0;
    if (!g || !in || !out) return g ? dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_scan: NULL buffer") : DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__sync_all(g)) != DG_OK) return st;
    cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    if (n == 0) { if (total) *total = 0; return DG_OK; }
    if ((st = dg__buf_fit(g, &cs->b.total, 4)) != DG_OK) return st;
    if ((st = dg__scan(g, in, out, n, cs->b.total.m, 0)) != DG_OK) return st;
    if (total && (st = dg__read_u32(g, cs->b.total.m, 0, &t)) != DG_OK) return st;
    if (total) *total = t;
    return DG_OK;
}

/* ---- frontiers ---- */
struct dg_frontier {
    dg_graph *g;
    dg__buf ids;
    cl_mem cnt;                   /* the length, on the device */
    size_t n;                     /* the length, when known on the host */
    int n_known;
};

DG_API dg_status dg_frontier_create(dg_graph *g, size_t capacity, dg_frontier **out) {
    dg_status st = DG_OK;
    dg_frontier *f;
    if (!g || !out) return DG_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if ((st = dg__sync(g)) != DG_OK) return st;
    if (!(f = (dg_frontier *)dg__alloc(g, sizeof *f))) return dg__oom(g, "frontier");
    memset(f, 0, sizeof *f);
    f->g = g;
    f->n_known = 1;
    DG__TRY(dg__cl_buffer(g, CL_MEM_READ_WRITE, 4, "frontier count", &f->cnt));
    g->dev->bytes += 4;
    DG__TRY(dg__buf_fit(g, &f->ids, (capacity ? capacity : 1) * 4));
    DG__TRY(dg__write_u32(g, f->cnt, 0, 0));
    *out = f;
    return DG_OK;
done:
    dg_frontier_destroy(f);
    return st;
}
DG_API void dg_frontier_destroy(dg_frontier *f) {
    if (!f) return;
    if (f->g->dev) {
        dg__buf_free(f->g->dev, &f->ids);
        if (f->cnt) { clReleaseMemObject(f->cnt); f->g->dev->bytes -= 4; }
    }
    dg__free(f->g, f);
}
DG_API cl_mem dg_frontier_buffer(const dg_frontier *f) { return f ? f->ids.m : NULL; }
DG_API dg_status dg_frontier_set(dg_frontier *f, const dg_vertex *ids, size_t n) {
    dg_status st = DG_OK;
    dg_graph *g;
    size_t i;
    if (!f || (!ids && n)) return DG_ERR_INVALID_ARGUMENT;
    g = f->g;
    if (n > 0xffffffffu) return dg__fail(g, DG_ERR_LIMIT, "a frontier holds at most 2^32 - 1 ids");
    for (i = 0; i < n; i++)
        if (ids[i] < 0 || !dg__alive(g, ids[i]))
            return dg__fail(g, ids[i] < 0 ? DG_ERR_INVALID_ARGUMENT : DG_ERR_NOT_FOUND,
                            "dg_frontier_set: id %zu is %d: %s", i, (int)ids[i],
                            ids[i] < 0 ? "negative" : (size_t)ids[i] < g->id_bound ? "a removed vertex"
                                                                                   : "beyond the id bound");
    DG__TRY(dg__buf_fit(g, &f->ids, n * 4));
    if (n) DG__CL(clEnqueueWriteBuffer(g->dev->queue, f->ids.m, CL_TRUE, 0, n * 4, ids, 0, NULL, NULL));
    DG__TRY(dg__write_u32(g, f->cnt, 0, (uint32_t)n));
    f->n = n; f->n_known = 1;
done:
    return st;
}
static dg_status dg__frontier_n(dg_frontier *f) {
    uint32_t n;
    dg_status st;
    if (f->n_known) return DG_OK;
    if ((st = dg__read_u32(f->g, f->cnt, 0, &n)) != DG_OK) return st;
    f->n = n; f->n_known = 1;
    return DG_OK;
}
DG_API dg_status dg_frontier_get(dg_frontier *f, dg_vertex *ids, size_t capacity, size_t *n) {
    dg_status st = DG_OK;
    dg_graph *g;
    size_t k;
    if (!f) return DG_ERR_INVALID_ARGUMENT;
    g = f->g;
    DG__TRY(dg__frontier_n(f));
    if (n) *n = f->n;
    k = f->n < capacity ? f->n : capacity;
    if (ids && k) DG__TRY(dg__read_out(g, f->ids.m, 0, k * 4, ids));
done:
    return st;
}

/* ---- user programs ---- */
#define DG__REDUCE_GROUPS 1024            /* work-groups of a dg_reduce at most (partials read back) */
static dg_args dg__no_args;               /* args == NULL: no buffers, scalars 0 (never written;
                                             not const: C++ wants an initializer for that) */
struct dg_program {
    dg_graph *g;
    cl_program prog;
    size_t nops;
    dg_op *ops;
    cl_kernel *k;
    char *user, *gen;     /* the user's source and the ops' kernels: kept to build again */
    uint32_t built;       /* the graph's program generation it was built for (dg__pos_width) */
};

/* Releases p's program and kernels (not p). */
static void dg__uprog_release(dg_program *p) {
    size_t i;
    for (i = 0; i < p->nops; i++) if (p->k && p->k[i]) { clReleaseKernel(p->k[i]); p->k[i] = NULL; }
    if (p->prog) clReleaseProgram(p->prog);
    p->prog = NULL;
}
DG_API void dg_program_destroy(dg_program *p) {
    if (!p) return;
    dg__uprog_release(p);
    dg__free(p->g, p->k); dg__free(p->g, p->ops); dg__free(p->g, p->user); dg__free(p->g, p->gen);
    dg__free(p->g, p);
}

/* A kind's base (1 advance, 2 filter, 3 compute, 4 reduce, 5 reduce int) and whether its
   functions take dg_args. */
#define DG__OP_BASE(kind) ((int)(kind) & 15)
#define DG__OP_ARGS(kind) (((int)(kind) & 16) != 0)
/* Checks op i of a dg_program_create call: its kind and function name. */
static dg_status dg__op_valid(dg_graph *g, const dg_op *op, size_t i) {
    const char *c = op->function;
    if (!((op->kind >= DG_OP_ADVANCE && op->kind <= DG_OP_COMPUTE) ||
          (op->kind >= DG_OP_ADVANCE_ARGS && op->kind <= DG_OP_REDUCE_INT)))
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_program_create: op %zu has no valid kind", i);
    if (!c || !*c || (*c >= '0' && *c <= '9'))
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_program_create: op %zu: function name missing or invalid", i);
    for (; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'))
            return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_program_create: op %zu: \"%s\" is not an identifier", i, op->function);
    return DG_OK;
}

/* Builds p's program and kernels from p->user and p->gen with the graph's build options
   now (at creation, and again when the graph's programs changed: dg__uprog_fresh). */
static dg_status dg__uprog_build(dg_program *p) {
    dg_graph *g = p->g;
    dg_status st = DG_OK;
    char opts[512], name[32], defs[256];
    const char *src[8];
    size_t i, slen[8], nsrc;
    cl_int e;
    dg__uprog_release(p);
    /* the public constants the templates use (written once, in this header) */
    sprintf(defs, "#define DG_ARGS_BUFFERS %d\n#define DG_ARGS_SCALARS %d\n#define DG_REDUCE_MIN %d\n"
                  "#define DG_REDUCE_MAX %d\n", (int)DG_ARGS_BUFFERS, (int)DG_ARGS_SCALARS, (int)DG_REDUCE_MIN,
            (int)DG_REDUCE_MAX);
    /* the common files, what user functions see (15_user.cl), the user's source as file "user"
       (so the compiler's messages name the user's lines), then one kernel per op */
    nsrc = dg__source_files(DG__COMMON_FILES, src, slen, 0, 3);
    src[nsrc] = defs;
    nsrc = dg__source_files("kernels/15_user.cl", src, slen, nsrc + 1, 4);
    src[nsrc] = "#line 1 \"user\"\n";
    src[nsrc + 1] = p->user;
    src[nsrc + 2] = p->gen;
    for (i = 0; i < nsrc + 3; i++) if (i >= nsrc || src[i] == defs) slen[i] = strlen(src[i]);
    DG__TRY(dg__options(g, opts, sizeof opts, 0));
    DG__TRY(dg__build(g, src, slen, nsrc + 3, opts, &p->prog));
    for (i = 0; i < p->nops; i++) {
        sprintf(name, "dg_user_op_%zu", i);
        p->k[i] = clCreateKernel(p->prog, name, &e);
        if (e != CL_SUCCESS) { p->k[i] = NULL; st = dg__clfail(g, e, "clCreateKernel"); goto done; }
    }
    p->built = g->dev->prog_gen;
done:
    return st;
}
/* p matches the graph's programs (after a sync: the pool may have outgrown 32-bit positions,
   dg__pos_width), else is built again. */
static dg_status dg__uprog_fresh(dg_program *p) {
    return p->prog && p->built == p->g->dev->prog_gen ? DG_OK : dg__uprog_build(p);
}

DG_API dg_status dg_program_create(dg_graph *g, const char *source, const dg_op *ops, size_t nops,
                                   dg_program **out) {
    static const char *const tmpl[] = { "", "DG_USER_ADVANCE", "DG_USER_FILTER", "DG_USER_COMPUTE",
                                        "DG_USER_REDUCE", "DG_USER_REDUCE_INT" };
    dg_status st = DG_OK;
    dg_program *p = NULL;
    size_t i, len = 64;
    if (!g || !out) return DG_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!source || (!ops && nops))
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_program_create: NULL source or ops");
    for (i = 0; i < nops; i++) {
        if ((st = dg__op_valid(g, &ops[i], i)) != DG_OK) return st;
        len += strlen(ops[i].function) + 64;
    }
    DG__TRY(dg__sync(g));
    if (!(p = (dg_program *)dg__alloc(g, sizeof *p))) return dg__oom(g, "program");
    memset(p, 0, sizeof *p);
    p->g = g;
    p->nops = nops;
    p->ops = (dg_op *)dg__alloc(g, (nops ? nops : 1) * sizeof(dg_op));
    p->k = (cl_kernel *)dg__alloc(g, (nops ? nops : 1) * sizeof(cl_kernel));
    p->gen = (char *)dg__alloc(g, len);
    p->user = (char *)dg__alloc(g, strlen(source) + 1);
    if (!p->ops || !p->k || !p->gen || !p->user) { st = dg__oom(g, "program"); goto done; }
    memset(p->k, 0, (nops ? nops : 1) * sizeof(cl_kernel));
    strcpy(p->user, source);
    strcpy(p->gen, "\n#line 1 \"dg_program_create\"\n");
    for (i = 0; i < nops; i++) {
        p->ops[i] = ops[i];
        p->ops[i].function = NULL;   /* not kept: the caller's string */
        sprintf(p->gen + strlen(p->gen), "\n%s(dg_user_op_%zu, %s, %d)\n", tmpl[DG__OP_BASE(ops[i].kind)], i,
                ops[i].function, DG__OP_ARGS(ops[i].kind));
    }
    DG__TRY(dg__uprog_build(p));
    *out = p;
    return DG_OK;
done:
    dg_program_destroy(p);
    return st;
}

/* Sets DG_USER_PARAMS (kernels/15_user.cl) of user kernel k from argument i: both stores,
   the bound, the buffers and the scalars of a (NULL: none). */
static dg_status dg__user_params(dg_graph *g, cl_kernel k, cl_uint i, const dg_args *a) {
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_int8 ints;
    cl_float8 floats;
    cl_uint bound = (cl_uint)g->id_bound, j;
    int s;
    if (!a) a = &dg__no_args;
    for (s = 0; s < 2; s++) {   /* weights: the out-store's (the in-store keeps none) */
        cl_mem w = !s && g->st[0].wpool ? d->st[0].wpool.m : NULL;
        DG__TRY(dg__adj_args(g, k, i, s, 0));
        DG__ARG(k, i + 5, w);
        i += 6;
    }
    DG__ARG(k, i, bound);
    i++;
    for (j = 0; j < DG_ARGS_BUFFERS; j++, i++) DG__ARG(k, i, a->buffers[j]);
    for (j = 0; j < DG_ARGS_SCALARS; j++) { ints.s[j] = a->ints[j]; floats.s[j] = a->floats[j]; }
    DG__ARG(k, i, ints);
    DG__ARG(k, i + 1, floats);
done:
    return st;
}

/* Every live vertex in ascending order, built on the device into ids (flags, scan, compaction);
   *n = how many (the host knows it). */
static dg_status dg__live_ids(dg_graph *g, dg__buf *ids, size_t *n) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_kernel kf = NULL, ki = NULL;
    cl_uint bound = (cl_uint)g->id_bound;
    *n = g->nverts;
    DG__TRY(dg__buf_fit(g, ids, (size_t)g->nverts * 4));
    if (!g->nverts) goto done;
    DG__TRY(dg__buf_fit(g, &cs->b.flags[0], (size_t)bound * 4));
    DG__TRY(dg__buf_fit(g, &cs->b.flags[1], (size_t)bound * 4));
    DG__TRY(dg__kernel(g, DG__K_LIVE_FLAGS, 0, &kf));
    DG__TRY(dg__args(g, kf, DG__A(d->dir.m), DG__A(bound), DG__A(cs->b.flags[0].m), DG__END));
    DG__TRY(dg__launch(g, kf, bound, d->wg));
    DG__TRY(dg__scan(g, cs->b.flags[0].m, cs->b.flags[1].m, bound, NULL, 0));
    DG__TRY(dg__kernel(g, DG__K_LIVE_IDS, 0, &ki));
    DG__TRY(dg__args(g, ki, DG__A(cs->b.flags[0].m), DG__A(cs->b.flags[1].m), DG__A(bound), DG__A(ids->m), DG__END));
    DG__TRY(dg__launch(g, ki, bound, d->wg));
done:
    return st;
}
DG_API dg_status dg_frontier_all(dg_frontier *f) {
    dg_status st;
    size_t n;
    if (!f) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__sync(f->g)) != DG_OK || (st = dg__live_ids(f->g, &f->ids, &n)) != DG_OK ||
        (st = dg__write_u32(f->g, f->cnt, 0, (uint32_t)n)) != DG_OK)
        return st;
    f->n = n; f->n_known = 1;
    return DG_OK;
}
/* The frontier of every live vertex for in == NULL: kept in the core state (cs->b.live) until
   the mirror changes. The result is a view: its length is known, it has no length buffer. */
static dg_status dg__live_frontier(dg_graph *g, dg_frontier *view) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg_status st;
    if (!cs->live_valid || cs->live_gen != g->dev->gen) {
        cs->live_valid = 0;
        if ((st = dg__live_ids(g, &cs->b.live, &cs->live_n)) != DG_OK) return st;
        cs->live_valid = 1;
        cs->live_gen = g->dev->gen;
    }
    memset(view, 0, sizeof *view);
    view->g = g;
    view->ids = cs->b.live;
    view->n = cs->live_n;
    view->n_known = 1;
    return DG_OK;
}

/* The advance: degrees of the frontier, their scan (the total read back to size the launch),
   then kernel k with one work-item per edge; its last argument is data (the library's own
   DG_DEFINE_ADVANCE kernels, ua NULL) or DG_USER_PARAMS from ua (user kernels). */
static dg_status dg__advance(dg_graph *g, cl_kernel k, int in_edges, dg_frontier *in, dg_frontier *out, cl_mem data,
                             const dg_args *ua, uint64_t *edges) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_kernel kd = NULL;
    uint32_t total = 0;
    cl_uint n_in;
    cl_mem w = !in_edges && g->st[0].wpool ? d->st[0].wpool.m : NULL;   /* in-edges weigh 1 */
    DG__TRY(dg__frontier_n(in));
    n_in = (cl_uint)in->n;
    if (n_in) {
        static const cl_uint zero = 0;
        cl_uint tf[2];
        DG__TRY(dg__buf_fit(g, &cs->b.scan_tmp, (size_t)n_in * 4));
        DG__TRY(dg__buf_fit(g, &cs->b.total, 8));
        DG__TRY(dg__kernel(g, DG__K_FRONTIER_DEGREES, 0, &kd));
        cl_uint bound = (cl_uint)g->id_bound;
        DG__TRY(dg__args(g, kd, dg__adj(in_edges, 0), DG__A(in->ids.m), DG__A(n_in), DG__A(bound),
                               DG__A(cs->b.scan_tmp.m), DG__END));
        DG__TRY(dg__launch(g, kd, n_in, d->wg));
        DG__TRY(dg__scan(g, cs->b.scan_tmp.m, cs->b.scan_tmp.m, n_in, cs->b.total.m, 0));
        /* the edges of a frontier (ids may repeat) can pass 2^32: refused, not wrapped */
        DG__CL(clEnqueueWriteBuffer(d->queue, cs->b.total.m, CL_FALSE, 4, 4, &zero, 0, NULL, NULL));
        DG__TRY(dg__run(g, DG__K_SCAN_WRAPPED, n_in, DG__A(cs->b.scan_tmp.m), DG__A(n_in), DG__A(cs->b.total.m), DG__END));
        DG__CL(clEnqueueReadBuffer(d->queue, cs->b.total.m, CL_TRUE, 0, 8, tf, 0, NULL, NULL));
        if (tf[1]) return dg__fail(g, DG_ERR_LIMIT, "advance: the frontier's %u ids have 2^32 edges or more", (unsigned)n_in);
        total = tf[0];
        if (edges) *edges += total;
    }
    DG__TRY(dg__buf_fit(g, &out->ids, (size_t)total * 4));
    DG__TRY(dg__write_u32(g, out->cnt, 0, 0));
    out->n = 0; out->n_known = 1;
    if (total) {
        DG__TRY(dg__args(g, k, dg__adj(in_edges, 0), DG__A(w), DG__A(in->ids.m),
                               DG__A(cs->b.scan_tmp.m), DG__A(n_in), DG__A(total),
                               DG__A(out->ids.m), DG__A(out->cnt), DG__END));
        if (ua) DG__TRY(dg__user_params(g, k, 12, ua));
        else DG__ARG(k, 12, data);
        DG__TRY(dg__launch(g, k, total, d->wg));
        out->n_known = 0;
    }
done:
    return st;
}
/* The filter: flags by kernel k, their scan (the total lands in out's length), compaction.
   k's last argument: data, or DG_USER_PARAMS from ua, as in dg__advance. */
static dg_status dg__filter(dg_graph *g, cl_kernel k, dg_frontier *in, dg_frontier *out, cl_mem data,
                            const dg_args *ua) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_kernel kc = NULL;
    cl_uint n;
    DG__TRY(dg__frontier_n(in));
    n = (cl_uint)in->n;
    DG__TRY(dg__buf_fit(g, &out->ids, (size_t)n * 4));
    if (n == 0) { DG__TRY(dg__write_u32(g, out->cnt, 0, 0)); out->n = 0; out->n_known = 1; goto done; }
    DG__TRY(dg__buf_fit(g, &cs->b.flags[0], (size_t)n * 4));
    DG__TRY(dg__buf_fit(g, &cs->b.flags[1], (size_t)n * 4));
    DG__TRY(dg__args(g, k, DG__A(in->ids.m), DG__A(n), DG__A(cs->b.flags[0].m), DG__END));
    if (ua) DG__TRY(dg__user_params(g, k, 3, ua));
    else DG__ARG(k, 3, data);
    DG__TRY(dg__launch(g, k, n, d->wg));
    DG__TRY(dg__scan(g, cs->b.flags[0].m, cs->b.flags[1].m, n, out->cnt, 0));
    DG__TRY(dg__kernel(g, DG__K_COMPACT, 0, &kc));
    DG__TRY(dg__args(g, kc, DG__A(in->ids.m), DG__A(cs->b.flags[0].m), DG__A(cs->b.flags[1].m),
                           DG__A(n), DG__A(out->ids.m), DG__END));
    DG__TRY(dg__launch(g, kc, n, d->wg));
    out->n_known = 0;
done:
    return st;
}

/* Checks a call of op `op` (kind: what the call runs) and syncs the graph; *in_use = in, or
   the frontier of every live vertex when in is NULL (a view, see dg__live_frontier). */
static dg_status dg__op_check(dg_program *p, size_t op, dg_op_kind kind, const dg_frontier *in,
                              const dg_frontier *out, dg_frontier *live, dg_frontier **in_use) {
    static const char *const kn[] = { "", "an advance", "a filter", "a compute", "a reduction", "a reduction" };
    int k;
    dg_status st;
    if (op >= p->nops) return dg__fail(p->g, DG_ERR_INVALID_ARGUMENT, "op %zu: the program has %zu ops", op, p->nops);
    k = DG__OP_BASE(p->ops[op].kind);
    if (k != DG__OP_BASE(kind) && !(kind == DG_OP_REDUCE && k == DG__OP_BASE(DG_OP_REDUCE_INT)))
        return dg__fail(p->g, DG_ERR_INVALID_ARGUMENT, "op %zu is not %s", op, kn[DG__OP_BASE(kind)]);
    if ((kind == DG_OP_ADVANCE || kind == DG_OP_FILTER) && (!out || out == in))
        return dg__fail(p->g, DG_ERR_INVALID_ARGUMENT, "%s needs an output frontier other than its input",
                        kn[DG__OP_BASE(kind)]);
    if ((in && in->g != p->g) || (out && out->g != p->g))
        return dg__fail(p->g, DG_ERR_INVALID_ARGUMENT, "the frontiers belong to another graph");
    if ((st = dg__sync(p->g)) != DG_OK || (st = dg__uprog_fresh(p)) != DG_OK) return st;
    *in_use = (dg_frontier *)(size_t)in;
    if (!in && (kind == DG_OP_ADVANCE || kind == DG_OP_FILTER)) {
        if ((st = dg__live_frontier(p->g, live)) != DG_OK) return st;
        *in_use = live;
    }
    return DG_OK;
}
DG_API dg_status dg_advance_ex(dg_program *p, size_t op, const dg_frontier *in, dg_frontier *out,
                               const dg_args *args) {
    dg_frontier live, *src;
    dg_status st;
    if (!p) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__op_check(p, op, DG_OP_ADVANCE, in, out, &live, &src)) != DG_OK) return st;
    return dg__advance(p->g, p->k[op], p->ops[op].in_edges, src, out, NULL, args ? args : &dg__no_args, NULL);
}
DG_API dg_status dg_filter_ex(dg_program *p, size_t op, const dg_frontier *in, dg_frontier *out,
                              const dg_args *args) {
    dg_frontier live, *src;
    dg_status st;
    if (!p) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__op_check(p, op, DG_OP_FILTER, in, out, &live, &src)) != DG_OK) return st;
    return dg__filter(p->g, p->k[op], src, out, NULL, args ? args : &dg__no_args);
}
/* Runs a compute or reduce kernel k over in (NULL: every id below the bound, the kernel skips
   removed ones): arguments (in, n, [part, how,] DG_USER_PARAMS); groups: 0 for one work-item
   per element (compute), else at most that many work-groups striding over the elements into
   part (reduce). */
static dg_status dg__user_map(dg_graph *g, cl_kernel k, dg_frontier *in, cl_mem part, cl_int how, size_t groups,
                              const dg_args *a, size_t *n_out) {
    dg_status st = DG_OK;
    cl_mem ids = NULL;
    cl_uint n, i = 2;
    if (in) {
        DG__TRY(dg__frontier_n(in));
        ids = in->ids.m;
        n = (cl_uint)in->n;
    } else {
        n = (cl_uint)g->id_bound;
    }
    *n_out = n;
    if (n == 0) goto done;
    DG__TRY(dg__args(g, k, DG__A(ids), DG__A(n), DG__END));
    if (part) { DG__ARG(k, 2, part); DG__ARG(k, 3, how); i = 4; }
    DG__TRY(dg__user_params(g, k, i, a));
    if (groups) {
        size_t need = (n + g->dev->wg - 1) / g->dev->wg;
        DG__TRY(dg__launch(g, k, (need < groups ? need : groups) * g->dev->wg, g->dev->wg));
    } else {
        DG__TRY(dg__launch(g, k, n, g->dev->wg));
    }
done:
    return st;
}
DG_API dg_status dg_compute_ex(dg_program *p, size_t op, const dg_frontier *in, const dg_args *args) {
    dg_frontier live, *src;
    dg_status st;
    size_t n;
    if (!p) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__op_check(p, op, DG_OP_COMPUTE, in, NULL, &live, &src)) != DG_OK) return st;
    return dg__user_map(p->g, p->k[op], src, NULL, 0, 0, args ? args : &dg__no_args, &n);
}
DG_API dg_status dg_reduce(dg_program *p, size_t op, const dg_frontier *in, const dg_args *args,
                           dg_reduce_op how, double *result) {
    dg__core_state *cs;
    dg_frontier live, *src;
    dg_status st = DG_OK;
    dg_graph *g;
    dg_reduce_op r;
    size_t n, groups, i;
    int integer;
    double acc;
    void *part = NULL;
    if (!p) return DG_ERR_INVALID_ARGUMENT;
    if (!result) return dg__fail(p->g, DG_ERR_INVALID_ARGUMENT, "dg_reduce: result is NULL");
    if (how != DG_REDUCE_SUM && how != DG_REDUCE_MIN && how != DG_REDUCE_MAX)
        return dg__fail(p->g, DG_ERR_INVALID_ARGUMENT, "dg_reduce: how is %d, not a dg_reduce_op", (int)how);
    if ((st = dg__op_check(p, op, DG_OP_REDUCE, in, NULL, &live, &src)) != DG_OK) return st;
    g = p->g;
    cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    r = how;
    integer = p->ops[op].kind == DG_OP_REDUCE_INT;
    acc = r == DG_REDUCE_MIN ? HUGE_VAL : r == DG_REDUCE_MAX ? -HUGE_VAL : 0.0;
    DG__TRY(dg__buf_fit(g, &cs->b.part, DG__REDUCE_GROUPS * 8));
    DG__TRY(dg__user_map(g, p->k[op], src, cs->b.part.m, (cl_int)how, DG__REDUCE_GROUPS, args ? args : &dg__no_args,
                         &n));
    groups = (n + g->dev->wg - 1) / g->dev->wg;
    if (groups > DG__REDUCE_GROUPS) groups = DG__REDUCE_GROUPS;
    if (groups) {
        if (!(part = dg__alloc(g, groups * 8))) { st = dg__oom(g, "dg_reduce"); goto done; }
        DG__CL(clEnqueueReadBuffer(g->dev->queue, cs->b.part.m, CL_TRUE, 0, groups * (integer ? 8 : 4), part,
                                   0, NULL, NULL));
    }
    if (integer) {   /* int64 partials: a sum stays an integer until the end; a group that met no
                        vertex holds INT64_MAX / INT64_MIN (an int value never does) */
        const int64_t *x = (const int64_t *)part;
        int64_t s = 0;
        for (i = 0; i < groups; i++) {
            if (r == DG_REDUCE_SUM) s += x[i];
            else if (r == DG_REDUCE_MIN && x[i] != INT64_MAX && (double)x[i] < acc) acc = (double)x[i];
            else if (r == DG_REDUCE_MAX && x[i] != INT64_MIN && (double)x[i] > acc) acc = (double)x[i];
        }
        if (r == DG_REDUCE_SUM) acc = (double)s;
    } else {
        const float *x = (const float *)part;
        for (i = 0; i < groups; i++)
            acc = r == DG_REDUCE_MIN ? (x[i] < acc ? x[i] : acc) : r == DG_REDUCE_MAX ? (x[i] > acc ? x[i] : acc)
                                                                                  : acc + x[i];
    }
    *result = acc;
done:
    dg__free(g, part);
    return st;
}
DG_API dg_status dg_advance(dg_program *p, size_t op, const dg_frontier *in, dg_frontier *out, cl_mem data) {
    dg_args a;
    memset(&a, 0, sizeof a);
    a.buffers[0] = data;
    return dg_advance_ex(p, op, in, out, &a);
}
DG_API dg_status dg_filter(dg_program *p, size_t op, const dg_frontier *in, dg_frontier *out, cl_mem data) {
    dg_args a;
    memset(&a, 0, sizeof a);
    a.buffers[0] = data;
    return dg_filter_ex(p, op, in, out, &a);
}
DG_API dg_status dg_compute(dg_program *p, size_t op, const dg_frontier *in, cl_mem data) {
    dg_args a;
    memset(&a, 0, sizeof a);
    a.buffers[0] = data;
    return dg_compute_ex(p, op, in, &a);
}

/* A plain CSR copy of the graph on the device (out-edges, and in-edges for directed graphs),
   rebuilt when the graph changed: what a static library would hold. For benchmarks. */
static dg_status dg__csr_copy(dg_graph *g) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    uint32_t *row = NULL;
    int32_t *col = NULL;
    int si;
    size_t n = g->id_bound, v;
    if (cs->csr_valid && cs->csr_gen == d->gen) return DG_OK;
    DG__TRY(dg__fresh_all(g));
    cs->csr_valid = 0;
    if (!(row = (uint32_t *)dg__alloc(g, (n + 1) * 4))) { st = dg__oom(g, "CSR copy"); goto done; }
    for (si = 0; si < g->nstores; si++) {
        dg__store *s = &g->st[si];
        size_t m = 0;
        for (v = 0; v < n; v++) {
            row[v] = (uint32_t)m;
            if (dg__alive(g, (dg_vertex)v)) m += dg__deg(g, s, (dg_vertex)v);
        }
        row[n] = (uint32_t)m;
        if (m > 0xffffffffu) { st = dg__fail(g, DG_ERR_LIMIT, "CSR copy: more than 2^32 arcs"); goto done; }
        if (!(col = (int32_t *)dg__alloc(g, (m ? m : 1) * 4))) { st = dg__oom(g, "CSR copy"); goto done; }
        for (v = 0; v < n; v++) {
            size_t cnt = 0;
            if (row[v + 1] == row[v]) continue;
            if (si == 0) dg_neighbors(g, (dg_vertex)v, col + row[v], NULL, row[v + 1] - row[v], &cnt);
            else dg_in_neighbors(g, (dg_vertex)v, col + row[v], row[v + 1] - row[v], &cnt);
        }
        DG__TRY(dg__buf_fit(g, &cs->b.csr_row[si], (n + 1) * 4));
        DG__TRY(dg__buf_fit(g, &cs->b.csr_col[si], (m ? m : 1) * 4));
        DG__CL(clEnqueueWriteBuffer(d->queue, cs->b.csr_row[si].m, CL_TRUE, 0, (n + 1) * 4, row, 0, NULL, NULL));
        if (m) DG__CL(clEnqueueWriteBuffer(d->queue, cs->b.csr_col[si].m, CL_TRUE, 0, m * 4, col, 0, NULL, NULL));
        dg__free(g, col); col = NULL;
    }
    cs->csr_valid = 1; cs->csr_gen = d->gen;
done:
    dg__free(g, row); dg__free(g, col);
    return st;
}

/* The edge chunks of the out-store ([Chernoskutov 2013]): cs->b.deg = exclusive scan of the
   out-degrees (n+1 positions, dg_pos: 64-bit under DG_POS64, so past 2^32 arcs), cs->b.sv =
   for each chunk of mec edges the vertex owning its first edge (fewer than 2^32 chunks). Built
   once per graph version, mec and position width. */
static dg_status dg__ec_ensure(dg_graph *g, int csr, uint32_t mec) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__dev *d = g->dev;
    const int variant = csr;
    const size_t pb = dg__pos_bytes(d);
    dg_status st = DG_OK;
    size_t n = g->id_bound;
    cl_kernel k = NULL;
    cl_uint un = (cl_uint)n, umec = mec;
    cl_ulong total = 0;
    uint64_t chunks;
    if (cs->ec_valid && cs->ec_gen == d->gen && cs->ec_mec == mec && cs->ec_pos64 == d->pos64 && !csr) return DG_OK;
    if (g->narcs / mec >= 0xffffffffu)
        return dg__fail(g, DG_ERR_LIMIT, "edge chunks: %llu arcs make 2^32 chunks of %u or more",
                        (unsigned long long)g->narcs, (unsigned)mec);
    DG_ASSERT(d->pos64 || g->narcs <= 0xffffffffu);   /* more arcs than that need a wider pool */
    cs->ec_valid = 0;
    DG__TRY(dg__buf_fit(g, &cs->b.deg, (n + 1) * pb));
    DG__TRY(dg__buf_fit(g, &cs->b.total, 8));
    DG__TRY(dg__kernel(g, DG__K_DEGREES, variant, &k));
    DG__TRY(dg__args(g, k, dg__adj(0, csr), DG__A(cs->b.deg.m), DG__A(un), DG__END));
    DG__TRY(dg__launch(g, k, n + 1, d->wg));
    DG__TRY(dg__scan_of(g, cs->b.deg.m, cs->b.deg.m, n + 1, cs->b.total.m, 1, 0));
    if (pb == 8) {
        DG__CL(clEnqueueReadBuffer(d->queue, cs->b.total.m, CL_TRUE, 0, 8, &total, 0, NULL, NULL));
    } else {
        uint32_t t32 = 0;
        DG__TRY(dg__read_u32(g, cs->b.total.m, 0, &t32));
        total = t32;
    }
    chunks = total / mec + (total % mec != 0);           /* (total + mec - 1) would wrap */
    cs->ec_total = total;
    cs->ec_chunks = (size_t)chunks;
    DG__TRY(dg__buf_fit(g, &cs->b.sv, (cs->ec_chunks ? cs->ec_chunks : 1) * 4));
    DG__TRY(dg__kernel(g, DG__K_EC_FILL, variant, &k));
    DG__TRY(dg__args(g, k, DG__A(cs->b.deg.m), DG__A(cs->b.sv.m), DG__A(un), DG__A(umec), DG__END));
    DG__TRY(dg__launch(g, k, n, d->wg));
    cs->ec_valid = !csr; cs->ec_gen = d->gen; cs->ec_mec = mec; cs->ec_pos64 = d->pos64;
done:
    return st;
}

/* =========================================================================
   Sorting on the device: dg_sort_pairs   >>sort
   =========================================================================
   LSD radix sort, DG_SORT_BITS bits a pass (kernels/35_sort.cl), between the caller's buffers
   and the module's two scratch buffers (an even number of passes ends in the caller's): tiles
   ranked and sorted by digit in local memory, written in order. Their places: up to
   dg__sort_sweep_tiles tiles, by a decoupled look-back over the tiles before (the digit counts
   of every pass in one launch, then one launch a pass: H200, 200k pairs 0.15 ms against 0.23-
   0.29); more, by a count kernel and a scan (three launches a pass: the look-back's kernel ran
   slower where the keys, not the launches, cost: 2M pairs 0.73 ms against 0.45-0.47;
   bench/NOTES.md). At most one
   tile (DG_SORT_ITEMS x the work-group: 2,048 pairs on a GPU) is sorted in place by one
   work-group, every pass in one launch. */
#define DG__SORT_HIST_WGS 1024    /* work-groups of the digit count (grid-stride) */
static size_t dg__sort_sweep_tiles = 128;   /* (a test hook) */
static cl_int dg__sort_incl = 1;             /* 0: the look-back's tiles publish no inclusive
                                                counts but tile 0's (a test hook) */
typedef struct dg__sort_state {
    struct { dg__buf k2, v2, sw, hist, total; } b;   /* sw: tickets, digit counts, look-back status;
                                                        hist, total: the tiles' counts, their scan */
} dg__sort_state;

/* Sorts n pairs by the low `bits` bits of the keys (stable; a multiple of DG_SORT_BITS). */
static dg_status dg__sort_pairs(dg_graph *g, cl_mem keys, cl_mem values, size_t n, unsigned bits) {
    dg__sort_state *ss;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_kernel kc = NULL, ks = NULL;
    size_t tile = (size_t)DG_SORT_ITEMS * d->wg, ng = (n + tile - 1) / tile, words;
    size_t hist_wgs = ng < DG__SORT_HIST_WGS ? ng : DG__SORT_HIST_WGS;
    cl_uint un = (cl_uint)n, ung = (cl_uint)ng, upass, up, shift;
    cl_int withv = values != NULL, sweep = ng <= dg__sort_sweep_tiles;
    cl_mem hist;
    cl_mem kin = keys, vin = values ? values : keys, kout, vout;
    unsigned pass, passes = (bits + DG_SORT_BITS - 1) / DG_SORT_BITS;
    if (n < 2) return DG_OK;
    up = (cl_uint)passes;
    if (n <= tile)   /* one work-group, one launch */
        return dg__run(g, DG__K_SORT_TILE, d->wg, DG__A(keys), DG__A(vin), DG__A(un), DG__A(up), DG__A(withv), DG__END);
    if (!(ss = DG__STATE(g, DG__MOD_SORT, dg__sort_state))) return dg__oom(g, "dg_sort_pairs");
    words = sweep ? DG_SORT_SW_STATUS + (size_t)passes * ng * DG_SORT_BINS : 1;
    DG__TRY(dg__buf_fit(g, &ss->b.k2, n * 4));
    DG__TRY(dg__buf_fit(g, &ss->b.v2, withv ? n * 4 : 4));
    DG__TRY(dg__buf_fit(g, &ss->b.sw, words * 4));
    DG__TRY(dg__buf_fit(g, &ss->b.hist, sweep ? 4 : (size_t)DG_SORT_BINS * ng * 4));
    DG__TRY(dg__buf_fit(g, &ss->b.total, 4));
    hist = ss->b.hist.m;
    DG__TRY(dg__kernel(g, sweep ? DG__K_SORT_SWEEP : DG__K_SORT_SCATTER, 0, &ks));
    if (sweep) {
        DG__TRY(dg__fill(g, ss->b.sw.m, 0, words));
        DG__TRY(dg__run(g, DG__K_SORT_HIST, hist_wgs * d->wg, DG__A(keys), DG__A(un), DG__A(up), DG__A(ss->b.sw.m), DG__END));
    } else
        DG__TRY(dg__kernel(g, DG__K_SORT_COUNT, 0, &kc));
    for (pass = 0; pass < passes; pass++) {
        upass = (cl_uint)pass;
        shift = (cl_uint)(pass * DG_SORT_BITS);
        kout = pass & 1 ? keys : ss->b.k2.m;
        vout = withv ? (pass & 1 ? values : ss->b.v2.m) : kout;
        if (sweep)
            DG__TRY(dg__args(g, ks, DG__A(kin), DG__A(vin), DG__A(kout), DG__A(vout), DG__A(un), DG__A(upass),
                             DG__A(ss->b.sw.m), DG__A(ung), DG__A(withv), DG__A(dg__sort_incl), DG__END));
        else {
            DG__TRY(dg__args(g, kc, DG__A(kin), DG__A(un), DG__A(shift), DG__A(hist), DG__A(ung), DG__END));
            DG__TRY(dg__launch(g, kc, ng * d->wg, d->wg));
            DG__TRY(dg__scan(g, hist, hist, (size_t)DG_SORT_BINS * ng, ss->b.total.m, 0));
            DG__TRY(dg__args(g, ks, DG__A(kin), DG__A(vin), DG__A(kout), DG__A(vout), DG__A(un), DG__A(shift),
                             DG__A(hist), DG__A(ung), DG__A(withv), DG__END));
        }
        DG__TRY(dg__launch(g, ks, ng * d->wg, d->wg));
        kin = kout;
        vin = vout;
    }
    if (passes & 1) {                             /* the result is in the scratch: copy it back */
        DG__CL(clEnqueueCopyBuffer(d->queue, ss->b.k2.m, keys, 0, 0, n * 4, 0, NULL, NULL));
        if (withv) DG__CL(clEnqueueCopyBuffer(d->queue, ss->b.v2.m, values, 0, 0, n * 4, 0, NULL, NULL));
    }
done:
    return st;
}

DG_API dg_status dg_sort_pairs(dg_graph *g, cl_mem keys, cl_mem values, size_t n) {
    dg_status st;
    size_t kb = 0, vb = 0;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if (!keys) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_sort_pairs: NULL keys");
    if (n > 0x7fffffffu) return dg__fail(g, DG_ERR_LIMIT, "dg_sort_pairs: %zu pairs (at most 2^31 - 1)", n);
    if ((st = dg__sync_all(g)) != DG_OK) return st;
    if (clGetMemObjectInfo(keys, CL_MEM_SIZE, sizeof kb, &kb, NULL) != CL_SUCCESS ||
        (values && clGetMemObjectInfo(values, CL_MEM_SIZE, sizeof vb, &vb, NULL) != CL_SUCCESS))
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_sort_pairs: keys or values is not a buffer");
    if (kb < n * 4 || (values && vb < n * 4))
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_sort_pairs: %zu pairs need %zu bytes a buffer (keys %zu, values %zu)",
                        n, n * 4, kb, vb);
    if (values == keys) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_sort_pairs: keys and values are one buffer");
    return dg__sort_pairs(g, keys, values, n, 32);
}

/* =========================================================================
   Batches on the device   >>update
   =========================================================================
   dg_add_edges / dg_remove_edges with dg_desc.device_batches = 1 (or 0, a GPU already in use
   and at least DG__DEV_BATCH_MIN edges), and dg_add_edges_cl / dg_remove_edges_cl, run the
   batch through kernels/25_update.cl: checks, the two radix sorts, repeats, the lookup in the
   lists, then per store a plan, room where lists lack it (dg__droom_*: the device lays the
   pages out again itself; dg__room_*: where a list is or becomes large, the host lays the
   page out from the degrees the device reports and the device moves the entries), and the
   writes in place; removals that leave a large list with fewer pages release them
   (dg__shrink_large). No list goes to the host. Nothing is written before the batch is
   checked and every buffer and page is reserved, so a failure leaves the graph as it was.
   Afterwards the pages the device wrote are stale on the host (>>mirror, ownership) and the
   counts are right. */
#ifndef DG__UP_SPEC
#define DG__UP_SPEC 4096          /* changed pages read back with the counts (16 KB; a test hook) */
#endif
#ifndef DG__UP_HSPEC
#define DG__UP_HSPEC 1024         /* a removal's shrunk large lists read back with them (8 KB) */
#endif
#define DG__DEV_BATCH_MIN 1000    /* device_batches = 0: a GPU takes batches of this many edges
                                     (H200, Kronecker scale 22, a batch and the sync a device
                                     search needs after it: 1,000 edges 1.8 ms on the host, 1.2
                                     on the device; 10,000 15.8 ms, 2.1: bench/NOTES.md) */
typedef struct dg__update_state {
    struct {
        dg__buf edges, keys, vals, flag, sc, sc2, asrc, adst, aw, pos, nsrc, ndst, nx, isrc, idst,
            ix, holes, movers, cnt, tot, segdeg[2], hc[2], mc[2], hstamp[2], cbits[2], clist[2],
            hlist[2], llist[2];
        dg__buf rv[2], rpos[2], rdeg[2], rk[2], rfrom[2], rord[2], scr[2], wscr[2], rfresh[2], rgrow[2];   /* room (host) */
        dg__buf dnl[2], dlofs[2], dnpg[2], dpofs[2], dlv[2], dlold[2], dldeg[2], dlk[2], dlt[2],
            dlnew[2], dids[2], dfb[2], dpg[2], dscr[2], dwscr[2], dfirst[2];           /* room (device) */
        dg__buf dblk;             /* a bit per directory block the device wrote (dg__dir_take); all
                                     of it clear between batches (zeroed whole when made) */
    } b;
    cl_int gen;                   /* this batch's stamp (hstamp) */
    size_t stamped[2];            /* pages hstamp, cbits and the lists cover (hstamp zeroed when
                                     it grew; cbits, a bit a page written, before each batch) */
} dg__update_state;

/* A batch's scratch (~20 words an arc, and the radix sort's two more) stays for the next batch
   while it is small beside the graph: at most twice the larger of dg__up_keep bytes (64 MiB; a
   test hook, 0: none kept) and a quarter of the pages' device bytes. A larger batch's (the first load of a large
   graph: 10 GB for 67M tuples) goes when the batch ends. */
static size_t dg__up_keep = (size_t)64 << 20;
static void dg__up_trim(dg_graph *g) {
    static const int mods[2] = { DG__MOD_UPDATE, DG__MOD_SORT };
    dg__dev *d = g->dev;
    size_t i, pages = 0, keep, held = dg__module_bytes(d, DG__MOD_UPDATE) + dg__module_bytes(d, DG__MOD_SORT);
    int si, k;
    for (si = 0; si < g->nstores; si++)
        pages += (size_t)g->st[si].page_hw * g->P * (g->st[si].wpool ? 8u : 4u);
    keep = dg__up_keep == 0 ? 0 : pages / 4 > dg__up_keep ? pages / 4 : dg__up_keep;
    if (held <= 2 * keep) return;   /* (twice: batches just past the limit do not remake it each time) */
    for (k = 0; k < 2; k++) {
        const dg__module *mod = &d->mod[mods[k]];
        for (i = 0; mod->state && i < mod->nbufs; i++) dg__buf_free(d, &dg__module_bufs(mod)[i]);
    }
    if (d->mod[DG__MOD_UPDATE].state) {   /* the stamps are zeroed again when made again */
        dg__update_state *us = (dg__update_state *)d->mod[DG__MOD_UPDATE].state;
        us->stamped[0] = us->stamped[1] = 0;
    }
}

static int dg__batch_on_device(const dg_graph *g, size_t n) {
    if (g->ndev > 1 || (!g->dev && dg__devices_n(g) > 1)) return 0;   /* (several devices: the host's, >>shard) */
    if (g->desc.device_batches > 0) return 1;
    return g->desc.device_batches == 0 && g->dev && !g->dev->cpu && n >= DG__DEV_BATCH_MIN;
}

/* The stamp arrays and the changed-page list of store si cover its pages, up to its capacity
   (new ones zeroed; the stamps of this batch go when they grow). */
static dg_status dg__up_stamps(dg_graph *g, dg__update_state *us, int si) {
    size_t n = g->st[si].page_cap ? g->st[si].page_cap : 1;
    dg_status st = DG_OK;
    if (us->stamped[si] >= n) return DG_OK;
    n += n / 4;
    DG__TRY(dg__buf_fit(g, &us->b.hstamp[si], n * 4));
    DG__TRY(dg__buf_fit(g, &us->b.cbits[si], (n + 31) / 32 * 4));
    DG__TRY(dg__buf_fit(g, &us->b.clist[si], n * 4));
    DG__TRY(dg__buf_fit(g, &us->b.hlist[si], n * 4));
    DG__TRY(dg__fill(g, us->b.hstamp[si].m, 0, n));
    DG__TRY(dg__fill(g, us->b.cbits[si].m, 0, (n + 31) / 32));
    us->stamped[si] = n;
done:
    return st;
}

/* The first bad edge i of a batch, reported as the host path reports it. */
static dg_status dg__up_bad(dg_graph *g, const dg_edge *he, cl_mem de, uint32_t i, int dead, const char *fn) {
    dg_status st = DG_OK;
    dg_edge e;
    dg_vertex bad;
    if (he) e = he[i];
    else DG__CL(clEnqueueReadBuffer(g->dev->queue, de, CL_TRUE, (size_t)i * sizeof e, sizeof e, &e, 0, NULL, NULL));
    if (dead)
        return dg__fail(g, DG_ERR_NOT_FOUND, "%s: vertex %d was removed (edge %u of the batch)", fn,
                        (int)(dg__alive(g, e.src) ? e.dst : e.src), (unsigned)i);
    if (e.src < 0 || e.dst < 0 || (size_t)e.src >= g->id_bound || (size_t)e.dst >= g->id_bound) {
        bad = e.src < 0 || (size_t)e.src >= g->id_bound ? e.src : e.dst;
        return dg__fail(g, bad < 0 ? DG_ERR_INVALID_ARGUMENT : DG_ERR_NOT_FOUND, "%s: %s vertex id %d (edge %u of the batch)",
                        fn, bad < 0 ? "negative" : "never created", (int)bad, (unsigned)i);
    }
    return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: NaN weight on edge %u (%d->%d)", fn, (unsigned)i, (int)e.src, (int)e.dst);
done:
    return st;
}

/* pos[j] = the place of arc j in its source's list in store si, where it is there; the arcs
   (src, dst: nb[ni] of them, at most m) are sorted by source, then target, without repeats.
   cc and co (m + 1 words) are scratch. The chunks of the lists (their number is on the device
   only) are shared out over 4 work-items an arc, and on a GPU at least DG__UP_FIND_GRID: a
   small batch of arcs into hubs has many chunks (1,000 arcs, 0.4 ms with 4,000 work-items on
   the H200). */
#define DG__UP_FIND_GRID ((size_t)1 << 17)
static dg_status dg__up_find(dg_graph *g, int si, cl_mem src, cl_mem dst, cl_mem nb, cl_uint ni, size_t m,
                             cl_mem cc, cl_mem co, cl_mem pos) {
    dg__update_state *us = (dg__update_state *)g->dev->mod[DG__MOD_UPDATE].state;
    dg_status st = DG_OK;
    cl_kernel k = NULL;
    cl_uint um = (cl_uint)m;
    size_t grid = m * 4 < 256 ? 256 : m * 4 > ((size_t)1 << 18) ? (size_t)1 << 18 : m * 4;
    if (!g->dev->cpu && grid < DG__UP_FIND_GRID) grid = DG__UP_FIND_GRID;
    DG__TRY(dg__kernel(g, DG__K_UP_CHUNKS, 0, &k));
    DG__TRY(dg__args(g, k, DG__A(src), DG__A(nb), DG__A(ni), DG__A(um), dg__adj(si, 0), DG__A(cc), DG__END));
    DG__TRY(dg__launch(g, k, m + 1, g->dev->wg));
    DG__TRY(dg__scan(g, cc, co, m + 1, us->b.tot.m, 0));
    DG__TRY(dg__kernel(g, DG__K_UP_FIND, 0, &k));
    DG__TRY(dg__args(g, k, DG__A(src), DG__A(dst), DG__A(nb), DG__A(ni), DG__A(co), dg__adj(si, 0), DG__A(pos), DG__END));
    DG__TRY(dg__launch(g, k, grid, g->dev->wg));
done:
    return st;
}

/* A device batch that lists at least 1/dg__lh_share as many lists as the host has hash indexes
   (rounded up) drops them all (a test hook; 0: never): a graph loaded on the host has an index on every long
   list (110k at Kronecker scale 22), device batches that drop them a few at a time pay a lookup
   for every list they change, batch after batch (~1 ms at 100k edges), and a free for each
   (0.3-0.8 us). Host batches make again those they need (dg__lh_need). */
static size_t dg__lh_share = 4;
static void dg__lh_free_all(dg_graph *g, dg__store *s) {
    size_t i;
    for (i = 0; i < s->nlh; i++) {   /* (the pointer, then what it points to: dg__free reads it) */
        if (i + DG__PF_LIST < s->nlh) DG__PREFETCH(&s->lh[s->lhv[i + DG__PF_LIST]]);
        if (i + DG__PF_REC < s->nlh) DG__PREFETCH(s->lh[s->lhv[i + DG__PF_REC]]);
        dg__free(g, s->lh[s->lhv[i]]);
        s->lh[s->lhv[i]] = NULL;
    }
    s->nlh = 0;
    s->lh_bytes = 0;
}
/* Marks the pages a batch wrote stale: from the device's list of them (O(pages)), or from its
   bits when those are fewer bytes (page_cap / 8: 22 KB at Kronecker scale 22, against 4 bytes
   a page for the ~100k pages a 100k-edge batch writes there). The hash indexes of the lists it
   changed go afterwards (the device lists those that can have one: DG_UP_LONG; dg__lh_share);
   an index holds positions within its list, so a list the device only moved keeps its index
   (unless the batch dropped all of them). */
static int dg__stale_from = 0;   /* a test hook: 0 the fewer bytes, 1 the list, 2 the bits */
static void dg__mark_stale(dg__store *s, const int32_t *pages, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        DG_ASSERT(dg__is_stale(s, pages[i]) || !s->ph[pages[i]].segs);   /* (dirty at most for its index entry: an LA-table move) */
        dg__stale_set(s, pages[i]);
    }
}
static void dg__mark_stale_bits(dg__store *s, const uint32_t *bits, size_t nw) {
    size_t i;
    for (i = 0; i < nw; i++) {
        uint32_t b = bits[i] & ~s->stale[i];
        if (!b) continue;
        s->stale[i] |= b;
        b = b - ((b >> 1) & 0x55555555u);                    /* (the bits counted) */
        b = (b & 0x33333333u) + ((b >> 2) & 0x33333333u);
        s->nstale += (((b + (b >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
    }
}

/* A large list u that a device removal left with L pages (its entries, ends and, for L = 1,
   its page's header already right on the device, and the index entries of its pages too:
   dg_up_rm_shrink): its other pages are released and its index entries say L (L = 1: an
   ordinary list again), here as there. Marks nothing changed: its pages are the device's, and
   the index entries agree (a 1M-edge removal at Kronecker scale 22 released 16k pages: their
   entries were a 1.8 ms sync on the H200 machine). */
static void dg__shrink_large(dg_graph *g, dg__store *s, dg_vertex u, int32_t L) {
    int32_t p0 = s->dir[s->ds * (size_t)u], old = s->idx[p0].la_len, j;
    int32_t *tab = dg__la_pages(s, p0);
    for (j = L; j < old; j++) {
        dg__stale_clear(s, tab[j]);       /* free: its content no longer matters */
        dg__page_unlink(s, tab[j]);
    }
    s->large_pages -= (size_t)(old - L);
    dg__lh_free(g, s, u);
    if (L > 1) dg__la_set_len(s, p0, L, 0);
    else dg__la_dissolve(g, s, p0, 0);      /* the host's copy keeps the header the device wrote */
}

/* Room on the host for the lists of an insertion that the device leaves to it (dg__droom_*:
   a large list, or a page one of whose lists would outgrow a page; one store's part). The
   device lists the pages (pg) of those lists; the host, which knows their slots (read back
   first where stale), lists their lists and has the device tell their degrees and how many arcs
   each takes; it lays those pages out again as its own batches do (dg__layout: the same and
   new pages, lists too long for a page made large), and grows large lists by continuation
   pages (dg__room_large), writing only headers, slots, degrees, the directory, the index and
   the LA table; the device copies the ordinary pages first (scr), and after the sync moves
   each list's entries from there to its new place (dg_up_move). Then every arc fits in place.
   Only metadata crosses the bus: 8 bytes up and 8 down a list. */
typedef struct dg__room {
    int32_t *pg, *ord;        /* the pages without room (np); the ordinary ones (nord), in scr order */
    dg_vertex *lv;            /* their lists (nl), page by page in slot order: the vertex, */
    uint64_t *lpos;           /* its degree entry in the pool (64-bit whatever dg_pos is), */
    uint32_t *ldeg, *lk, *lfrom;   /* its degree, the arcs it takes, its degree entry in scr
                                      (UINT32_MAX: a large list) */
    int32_t *fresh;           /* large lists' new continuation pages (nfresh (page, end) pairs),
                                 set up by the device (dg_up_la_init), and lists that become
                                 large: the host sends only their index entries (dg__la_fresh);
                                 room for fresh_cap */
    int32_t *grow;            /* large lists grown (ngrow (first page, pages before) pairs): the
                                 device writes their pages' index entries (dg_up_la_grow); the
                                 host sends the first page's and the LA table's; room for nl */
    size_t np, nl, nord, nfresh, fresh_cap, ngrow;
} dg__room;
static void dg__room_free(dg_graph *g, dg__room *r) {
    dg__free(g, r->pg); dg__free(g, r->ord); dg__free(g, r->lv); dg__free(g, r->lpos);
    dg__free(g, r->ldeg); dg__free(g, r->lk); dg__free(g, r->lfrom); dg__free(g, r->fresh);
    dg__free(g, r->grow);
    memset(r, 0, sizeof *r);
}
/* Large list u (deg entries) takes k more: continuation pages after its last. commit = 0:
   only counts the pages and LA-table entries. The new pages are the device's from the start
   (stale here, their host memory untouched): the device sets them up (r->fresh) and writes
   the arcs (a page sent whole cost 1 KB of the sync a page: 16k pages, 16 MB, when 1M removed
   edges of a Kronecker graph came back). Of the index entries, which change on every page of
   the list (its page count), the host sends only the first page's, with the LA table; the
   device writes the others as they are here (r->grow, dg_up_la_grow). */
static void dg__room_large(dg_graph *g, dg__store *s, dg_vertex u, size_t deg, size_t k, int commit,
                           size_t *pages, size_t *latab) {
    int32_t p0 = s->dir[s->ds * (size_t)u], last, *tab;
    size_t L = (size_t)s->idx[p0].la_len, Lf = dg__la_pages_after(g, deg + k), j;
    if (!commit) { *pages += Lf - L; *latab += dg__latab_need(s, p0, L, Lf); return; }
    dg__la_table_fit(s, p0, L, Lf);
    tab = dg__la_pages(s, p0);
    last = tab[L - 1];
    for (j = L; j < Lf; j++) {           /* (their index entries written here and by the device) */
        int32_t q = dg__la_fresh(g, s, last, DG__HDR, 0);
        s->idx[q].first = u; s->idx[q].la_pos = (int32_t)j;
        tab[j] = q;
        last = q;
    }
    dg__la_set_len(s, p0, (int32_t)Lf, 0);
    dg__touch_idx(s, p0);                /* (and with it the list's LA-table segment) */
    g->lagrow[2 * g->nlagrow] = p0;
    g->lagrow[2 * g->nlagrow + 1] = (int32_t)L;
    g->nlagrow++;
    s->large_pages += Lf - L;
    dg__lh_free(g, s, u);
}
/* The layout of r's pages in store s (commit = 0: the pages and LA-table entries it takes). */
static void dg__room_layout(dg_graph *g, dg__store *s, dg__room *r, int commit, size_t *pages, size_t *latab) {
    size_t i, l = 0;
    if (commit) {
        g->lafresh = r->fresh; g->nlafresh = 0;
        g->lagrow = r->grow; g->nlagrow = 0;
    }
    for (i = 0; i < r->np; i++) {
        int32_t p = r->pg[i];
        uint32_t j, n;
        if (r->lfrom[l] == UINT32_MAX) {
            dg__room_large(g, s, r->lv[l], r->ldeg[l], r->lk[l], commit, pages, latab);
            l++;
            continue;
        }
        for (n = 0; l + n < r->nl && r->lpos[l + n] / g->P == (uint64_t)p; n++) {}
        for (j = 0; j < n; j++, l++) {
            dg__item *it = &g->items[j];
            it->v = r->lv[l]; it->deg = r->ldeg[l]; it->k = r->lk[l]; it->off = 0; it->ai = 0;
        }
        if (commit) dg__stale_clear(s, p);   /* written here now; the device writes the entries */
        dg__layout(g, s, &p, 1, g->items, n, NULL, NULL, NULL, commit, pages, latab);
    }
    if (commit) {
        r->nfresh = g->nlafresh; g->lafresh = NULL; g->nlafresh = 0;
        r->ngrow = g->nlagrow; g->lagrow = NULL; g->nlagrow = 0;
    }
}
/* The pages pgs[0..np) that store si's lists lack room on (not stale), lists their
   lists and has the device count (dg_up_degs over the arcs S[0..N)); adds up what their
   layout takes. */
static dg_status dg__room_plan(dg_graph *g, dg__update_state *us, int si, const int32_t *pgs, size_t np, cl_mem S,
                               cl_uint N, dg__room *r, size_t *pages, size_t *latab, double *tr) {
    dg__store *s = &g->st[si];
    dg_status st = DG_OK;
    size_t i, l = 0;
    cl_uint unl;
    r->np = np;
    if (!(r->pg = (int32_t *)dg__alloc(g, np * sizeof(int32_t))) || !(r->ord = (int32_t *)dg__alloc(g, np * sizeof(int32_t))))
        return dg__oom(g, "device batch: room");
    memcpy(r->pg, pgs, np * sizeof(int32_t));
    qsort(r->pg, np, sizeof(int32_t), dg__cmp_i32);
    for (i = 0; i < np; i++)   /* (a large list's page, perhaps stale here: its index entry) */
        r->nl += s->idx[r->pg[i]].la_pos >= 0 ? 1 : (size_t)DG__PAGE(g, s, r->pg[i])[0];
    r->lv = (dg_vertex *)dg__alloc(g, r->nl * sizeof(dg_vertex));
    r->lpos = (uint64_t *)dg__alloc(g, r->nl * 8); r->ldeg = (uint32_t *)dg__alloc(g, r->nl * 4);
    r->lk = (uint32_t *)dg__alloc(g, r->nl * 4); r->lfrom = (uint32_t *)dg__alloc(g, r->nl * 4);
    if (!r->lv || !r->lpos || !r->ldeg || !r->lk || !r->lfrom) return dg__oom(g, "device batch: room");
    for (i = 0; i < np; i++) {
        int32_t p = r->pg[i];
        const int32_t *pg = DG__PAGE(g, s, p);
        uint32_t j;
        if (s->idx[p].la_pos >= 0) {
            r->lv[l] = s->idx[p].first; r->lpos[l] = (uint64_t)p * g->P + DG__HDR; r->lfrom[l++] = UINT32_MAX;
            continue;
        }
        for (j = 0; j < (uint32_t)pg[0]; j++, l++) {
            uint32_t off = (uint32_t)DG__SLOT_OFF(g, pg, j);
            r->lv[l] = DG__SLOT_VID(g, pg, j);
            r->lpos[l] = (uint64_t)p * g->P + off;
            r->lfrom[l] = (uint32_t)r->nord * g->P + off;
        }
        r->ord[r->nord++] = p;
    }
    if (r->nord >= (size_t)0xffffffffu / g->P)   /* scr positions are 32-bit (lfrom, dg_up_move) */
        return dg__fail(g, DG_ERR_LIMIT, "device batch: %zu pages to lay out again (at most %zu)", r->nord,
                        (size_t)0xffffffffu / g->P - 1);
    unl = (cl_uint)r->nl;
    DG__TRY(dg__buf_fit(g, &us->b.rv[si], r->nl * 4)); DG__TRY(dg__buf_fit(g, &us->b.rpos[si], r->nl * 8));
    DG__TRY(dg__buf_fit(g, &us->b.rdeg[si], r->nl * 4)); DG__TRY(dg__buf_fit(g, &us->b.rk[si], r->nl * 4));
    DG__TRY(dg__buf_fit(g, &us->b.rfrom[si], r->nl * 4)); DG__TRY(dg__buf_fit(g, &us->b.rord[si], r->nord * 4));
    DG__TRY(dg__buf_fit(g, &us->b.scr[si], r->nord * g->P * 4));
    if (s->wpool) DG__TRY(dg__buf_fit(g, &us->b.wscr[si], r->nord * g->P * 4));
    DG__CL(clEnqueueWriteBuffer(g->dev->queue, us->b.rv[si].m, CL_FALSE, 0, r->nl * 4, r->lv, 0, NULL, NULL));
    DG__CL(clEnqueueWriteBuffer(g->dev->queue, us->b.rpos[si].m, CL_FALSE, 0, r->nl * 8, r->lpos, 0, NULL, NULL));
    DG__CL(clEnqueueWriteBuffer(g->dev->queue, us->b.rfrom[si].m, CL_FALSE, 0, r->nl * 4, r->lfrom, 0, NULL, NULL));
    if (r->nord) DG__CL(clEnqueueWriteBuffer(g->dev->queue, us->b.rord[si].m, CL_FALSE, 0, r->nord * 4, r->ord, 0, NULL, NULL));
    DG__TRY(dg__run(g, DG__K_UP_DEGS, r->nl, DG__A(us->b.rv[si].m), DG__A(us->b.rpos[si].m), DG__A(unl),
                    DG__A(g->dev->st[si].pool.m), DG__A(S), DG__A(N), DG__A(us->b.rdeg[si].m), DG__A(us->b.rk[si].m), DG__END));
    DG__CL(clEnqueueReadBuffer(g->dev->queue, us->b.rdeg[si].m, CL_FALSE, 0, r->nl * 4, r->ldeg, 0, NULL, NULL));
    DG__CL(clEnqueueReadBuffer(g->dev->queue, us->b.rk[si].m, CL_TRUE, 0, r->nl * 4, r->lk, 0, NULL, NULL));
    dg__up_trace(g, tr, "rc-degrees");
    dg__room_layout(g, s, r, 0, pages, latab);
done:
    return st;
}
/* The device's copy of the ordinary pages of r (before anything is written). */
static dg_status dg__room_copy(dg_graph *g, dg__update_state *us, int si, const dg__room *r) {
    dg__dstore *m = &g->dev->st[si];
    dg_status st = DG_OK;
    cl_uint zero = 0, n = (cl_uint)r->nord, uP = g->P;
    if (!n) return DG_OK;
    DG__TRY(dg__run(g, DG__K_GATHER_PAGES, r->nord * g->dev->wg, DG__A(m->pool.m), DG__A(us->b.rord[si].m), DG__A(zero),
                    DG__A(n), DG__A(uP), DG__A(us->b.scr[si].m), DG__END));
    if (g->st[si].wpool)
        DG__TRY(dg__run(g, DG__K_GATHER_PAGES, r->nord * g->dev->wg, DG__A(m->wpool.m), DG__A(us->b.rord[si].m), DG__A(zero),
                        DG__A(n), DG__A(uP), DG__A(us->b.wscr[si].m), DG__END));
done:
    return st;
}
/* After the layout is synced: the entries of r's ordinary pages move to their new places. */
static dg_status dg__room_move(dg_graph *g, dg__update_state *us, int si, const dg__room *r) {
    dg_status st = DG_OK;
    cl_uint unl = (cl_uint)r->nl, slot = DG_UP_CHANGED + (cl_uint)si, unf = (cl_uint)r->nfresh;
    size_t groups = r->nl < 65536 ? r->nl : 65536, fgroups = r->nfresh < 65536 ? r->nfresh : 65536;
    cl_mem ws = g->st[si].wpool ? us->b.wscr[si].m : us->b.scr[si].m;
    if (r->nfresh) {   /* (r->fresh lives until the batch ends, after its last wait) */
        DG__CL(clEnqueueWriteBuffer(g->dev->queue, us->b.rfresh[si].m, CL_FALSE, 0, 2 * r->nfresh * 4, r->fresh, 0, NULL, NULL));
        DG__TRY(dg__run(g, DG__K_UP_LA_INIT, fgroups * g->dev->wg, DG__A(g->dev->st[si].pool.m), DG__A(g->dev->st[si].wpool.m),
                        DG__A(us->b.rfresh[si].m), DG__A(unf), DG__END));
    }
    if (r->ngrow) {    /* (after the sync: the first pages' index entries and the LA table are there) */
        cl_uint ung = (cl_uint)r->ngrow;
        size_t ggroups = r->ngrow < 65536 ? r->ngrow : 65536;
        DG__CL(clEnqueueWriteBuffer(g->dev->queue, us->b.rgrow[si].m, CL_FALSE, 0, 2 * r->ngrow * 4, r->grow, 0, NULL, NULL));
        DG__TRY(dg__run(g, DG__K_UP_LA_GROW, ggroups * g->dev->wg, DG__A(us->b.rgrow[si].m), DG__A(ung),
                        DG__A(g->dev->st[si].idx.m), DG__A(g->dev->st[si].latab.m), DG__END));
    }
    if (!r->nord) return DG_OK;
    DG__TRY(dg__run(g, DG__K_UP_MOVE, groups * g->dev->wg, DG__A(us->b.rv[si].m), DG__A(us->b.rfrom[si].m), DG__A(us->b.rdeg[si].m),
                    DG__A(unl), dg__adj(si, 0), DG__A(g->dev->st[si].wpool.m), DG__A(us->b.scr[si].m), DG__A(ws),
                    DG__A(us->b.cbits[si].m), DG__A(us->b.clist[si].m), DG__A(us->b.cnt.m), DG__A(slot), DG__END));
done:
    return st;
}

/* Room made on the device (one store's part): the pages without room (hlist, np of them)
   are laid out again by dg_up_room_* (kernels/25_update.cl) as dg__layout lays out a page,
   onto themselves and new pages the host reserves and links after them (dg__page_take); the
   device writes headers, slots, records, its directory and index entries, and marks the
   directory blocks it wrote. The host follows only with the new pages' index entries (which
   list opens each: 8 bytes a list read back where a page has new pages); the pages are stale
   here (the host's copy of the page keeps its old slots until read back; the new pages are
   stale from the start, their host memory untouched), and so are the marked directory blocks (dg__dir_take:
   the host reads one back when it needs an entry of it, >>mirror). A large list's page, or one
   whose list would outgrow a page, is left to the host (dg__room_*: fb). */
typedef struct dg__droom {
    int32_t *pg, *fb, *ids;   /* the pages without room (np); the host's (nfb: the nfb_ord ordinary
                                 ones first, then large lists' first pages); the new pages (C,
                                 page i's after those of the pages before it), then their first
                                 lists' vertices (C) */
    uint32_t *nl, *npg;       /* per page its lists, its new pages */
    size_t np, nfb, nfb_ord, nlists, C;   /* lists, new pages in all */
} dg__droom;
static void dg__droom_free(dg_graph *g, dg__droom *r) {
    dg__free(g, r->pg); dg__free(g, r->fb); dg__free(g, r->ids); dg__free(g, r->nl); dg__free(g, r->npg);
    memset(r, 0, sizeof *r);
}
/* The device's plan for the np pages without room of store si (arcs S[0..N)): per page its
   lists and new pages, read back with the pages and the list of those it leaves to the host
   (all np words: the caller reads the counters after, and how many in one wait). */
static dg_status dg__droom_plan(dg_graph *g, dg__update_state *us, int si, size_t np, cl_mem S, cl_uint N,
                                dg__droom *r) {
    dg_status st = DG_OK;
    cl_uint unp = (cl_uint)np, slot = DG_UP_FALLBACK + (cl_uint)si;
    size_t i, L;
    cl_mem pool = g->dev->st[si].pool.m;
    r->np = np;
    if (!(r->pg = (int32_t *)dg__alloc(g, np * 4)) || !(r->nl = (uint32_t *)dg__alloc(g, np * 4)) ||
        !(r->npg = (uint32_t *)dg__alloc(g, np * 4)) || !(r->fb = (int32_t *)dg__alloc(g, np * 4)))
        return dg__oom(g, "device batch: room");
    DG__TRY(dg__buf_fit(g, &us->b.dnl[si], np * 4)); DG__TRY(dg__buf_fit(g, &us->b.dlofs[si], np * 4));
    DG__TRY(dg__buf_fit(g, &us->b.dnpg[si], np * 4)); DG__TRY(dg__buf_fit(g, &us->b.dpofs[si], np * 4));
    DG__TRY(dg__buf_fit(g, &us->b.dfb[si], np * 4));
    DG__TRY(dg__run(g, DG__K_UP_ROOM_COUNT, np, DG__A(us->b.hlist[si].m), DG__A(unp), DG__A(pool), DG__A(us->b.dnl[si].m), DG__END));
    DG__CL(clEnqueueReadBuffer(g->dev->queue, us->b.hlist[si].m, CL_FALSE, 0, np * 4, r->pg, 0, NULL, NULL));
    DG__CL(clEnqueueReadBuffer(g->dev->queue, us->b.dnl[si].m, CL_TRUE, 0, np * 4, r->nl, 0, NULL, NULL));
    for (i = 0, L = 0; i < np; i++) L += r->nl[i];
    r->nlists = L;
    L = L ? L : 1;
    DG__TRY(dg__buf_fit(g, &us->b.dlv[si], L * 4)); DG__TRY(dg__buf_fit(g, &us->b.dlold[si], L * 4));
    DG__TRY(dg__buf_fit(g, &us->b.dldeg[si], L * 4)); DG__TRY(dg__buf_fit(g, &us->b.dlk[si], L * 4));
    DG__TRY(dg__buf_fit(g, &us->b.dlt[si], L * 4)); DG__TRY(dg__buf_fit(g, &us->b.dlnew[si], L * 4));
    DG__TRY(dg__scan(g, us->b.dnl[si].m, us->b.dlofs[si].m, np, NULL, 0));
    DG__TRY(dg__run(g, DG__K_UP_ROOM_PLAN, (np < 65536 ? np : 65536) * g->dev->wg, DG__A(us->b.hlist[si].m), DG__A(unp), DG__A(pool), DG__A(S), DG__A(N),
                    DG__A(us->b.dlofs[si].m), DG__A(us->b.dlv[si].m), DG__A(us->b.dlold[si].m), DG__A(us->b.dldeg[si].m),
                    DG__A(us->b.dlk[si].m), DG__A(us->b.dlt[si].m), DG__A(us->b.dlnew[si].m), DG__A(us->b.dnpg[si].m),
                    DG__A(us->b.dfb[si].m), DG__A(us->b.cnt.m), DG__A(slot), DG__END));
    DG__TRY(dg__scan(g, us->b.dnpg[si].m, us->b.dpofs[si].m, np, NULL, 0));
    DG__CL(clEnqueueReadBuffer(g->dev->queue, us->b.dnpg[si].m, CL_FALSE, 0, np * 4, r->npg, 0, NULL, NULL));
    DG__CL(clEnqueueReadBuffer(g->dev->queue, us->b.dfb[si].m, CL_FALSE, 0, np * 4, r->fb, 0, NULL, NULL));
done:
    return st;
}
/* After the counters are read (nfb pages left to the host): those pages, the ordinary ones
   read back where stale with the directory blocks of their lists (the host lays them out from
   its copy of their slots; 1M re-inserted edges of a Kronecker graph: ~9 ms on the H200
   machine with the large lists' pages too); a large list's first page is not (the host grows
   the list from its index entries, LA table and degree, and its directory entry, which the
   device never moves, is current on the host); the new pages in all, and the memory of the
   layout (before anything is written). */
static dg_status dg__droom_fallback(dg_graph *g, dg__update_state *us, int si, size_t nfb, dg__droom *r,
                                    double *tr) {
    dg__store *s = &g->st[si];
    dg_status st = DG_OK;
    size_t i;
    for (i = 0, r->C = 0; i < r->np; i++) r->C += r->npg[i];
    r->nfb = nfb;
    r->nfb_ord = 0;
    if (nfb) {
        for (i = 0; i < nfb; i++)                 /* the ordinary pages first */
            if (s->idx[r->fb[i]].la_pos < 0) {
                int32_t t = r->fb[i];
                r->fb[i] = r->fb[r->nfb_ord];
                r->fb[r->nfb_ord++] = t;
            }
        DG__TRY(dg__fresh_pages(g, si, r->fb, r->nfb_ord));
        dg__up_trace(g, tr, "fb-pages");
        DG__TRY(dg__fresh_dir_pages(g, si, r->fb, r->nfb_ord, 2));   /* (those blocks only) */
        dg__up_trace(g, tr, "fb-dir");
#ifdef DYNGRAPH_TRACE_UPDATE
        fprintf(stderr, "  [update] (store %d: %zu pages left to the host, %zu of them large lists')\n", si, nfb,
                nfb - r->nfb_ord);
#endif
    }
    if (r->np == nfb) return DG_OK;
    if (!(r->ids = (int32_t *)dg__alloc(g, (r->C ? 2 * r->C : 1) * 4))) return dg__oom(g, "device batch: room");
    DG__TRY(dg__buf_fit(g, &us->b.dids[si], (r->C ? r->C : 1) * 4));
    DG__TRY(dg__buf_fit(g, &us->b.dfirst[si], (r->C ? r->C : 1) * 4));
    DG__TRY(dg__buf_fit(g, &us->b.dpg[si], r->np * 4));   /* (hlist may grow before the layout) */
    DG__TRY(dg__buf_fit(g, &us->b.dscr[si], r->np * g->P * 4));
    if (g->st[si].wpool) DG__TRY(dg__buf_fit(g, &us->b.dwscr[si], r->np * g->P * 4));
done:
    return st;
}
/* The layout (pages reserved): the new pages taken and linked after their pages, the pages
   copied and laid out on the device, which also writes the moved lists' directory entries and
   marks their blocks (the host takes the marks after the writes: dg__dir_take); the host reads
   back which list opens each new page, for that page's index entry. */
static dg_status dg__droom_write(dg_graph *g, dg__update_state *us, int si, dg__droom *r, double *tr) {
    dg__store *s = &g->st[si];
    dg__dev *d = g->dev;
    dg__dstore *m = &d->st[si];
    dg_status st = DG_OK;
    cl_uint unp = (cl_uint)r->np, dso = 2 * (cl_uint)si, zero = 0, slot = DG_UP_CHANGED + (cl_uint)si, uP = g->P;
    size_t i, j, c, groups = r->np < 65536 ? r->np : 65536;
    int32_t *ids = r->ids;
    cl_mem wp = m->wpool.m, ws = s->wpool ? us->b.dwscr[si].m : us->b.dscr[si].m;
    if (r->np == r->nfb) return DG_OK;
    for (i = 0, c = 0; i < r->np; i++) {          /* new pages follow their page, stale already */
        int32_t after = r->pg[i];
        for (j = 0; j < r->npg[i]; j++) {
            after = ids[c++] = dg__page_take(s, after);
            dg__stale_set(s, after);
        }
    }
    dg__up_trace(g, tr, "room-take");
    if (r->C) DG__CL(clEnqueueWriteBuffer(d->queue, us->b.dids[si].m, CL_FALSE, 0, r->C * 4, ids, 0, NULL, NULL));
    DG__CL(clEnqueueWriteBuffer(d->queue, us->b.dpg[si].m, CL_FALSE, 0, r->np * 4, r->pg, 0, NULL, NULL));
    DG__TRY(dg__run(g, DG__K_GATHER_PAGES, groups * d->wg, DG__A(m->pool.m), DG__A(us->b.dpg[si].m), DG__A(zero),
                    DG__A(unp), DG__A(uP), DG__A(us->b.dscr[si].m), DG__END));
    if (s->wpool)
        DG__TRY(dg__run(g, DG__K_GATHER_PAGES, groups * d->wg, DG__A(m->wpool.m), DG__A(us->b.dpg[si].m), DG__A(zero),
                        DG__A(unp), DG__A(uP), DG__A(us->b.dwscr[si].m), DG__END));
    DG__TRY(dg__run(g, DG__K_UP_ROOM_WRITE, groups * d->wg, DG__A(us->b.dpg[si].m), DG__A(unp), DG__A(us->b.dnl[si].m),
                    DG__A(us->b.dlofs[si].m), DG__A(us->b.dnpg[si].m), DG__A(us->b.dpofs[si].m), DG__A(us->b.dids[si].m),
                    DG__A(us->b.dlv[si].m), DG__A(us->b.dlold[si].m), DG__A(us->b.dldeg[si].m), DG__A(us->b.dlk[si].m),
                    DG__A(us->b.dlt[si].m), DG__A(us->b.dlnew[si].m), DG__A(d->dir.m), DG__A(dso), DG__A(m->pool.m),
                    DG__A(wp), DG__A(m->idx.m), DG__A(us->b.dscr[si].m), DG__A(ws), DG__A(us->b.cbits[si].m),
                    DG__A(us->b.clist[si].m), DG__A(us->b.cnt.m), DG__A(slot), DG__A(us->b.dblk.m),
                    DG__A(us->b.dfirst[si].m), DG__END));
    dg__up_trace(g, tr, "room-kernels");
#ifdef DYNGRAPH_TRACE_UPDATE
    fprintf(stderr, "  [update] (store %d: %zu lists on %zu pages moved, %zu new pages)\n", si, r->nlists, r->np, r->C);
#endif
    if (!r->C) return DG_OK;
    /* the new pages' first lists: read with the directory's marks next (dg__dir_take waits),
       then put in their index entries (dg__droom_firsts) */
    DG__CL(clEnqueueReadBuffer(d->queue, us->b.dfirst[si].m, CL_FALSE, 0, r->C * 4, ids + r->C, 0, NULL, NULL));
done:
    return st;
}
static void dg__droom_firsts(dg_graph *g, int si, const dg__droom *r) {
    size_t c;
    for (c = 0; c < r->C; c++) g->st[si].idx[r->ids[c]].first = r->ids[r->C + c];
}

/* After the device laid lists out again: the directory blocks it marked are the device's
   (dd.dev) until the host reads them back (>>mirror, ownership); the marks are cleared for
   the next batch. */
#define DG__DIR_MARK_WORDS(g) (((g)->id_bound + 32 * DG__DIR_BLOCK - 1) / (32 * DG__DIR_BLOCK))
static dg_status dg__dir_take(dg_graph *g, dg__update_state *us, uint32_t *w) {   /* w: the words' room */
    dg__dirdirty *dd = &g->dd;
    size_t nw = DG__DIR_MARK_WORDS(g), i, took = 0;
    uint32_t j, x;
    dg_status st = dg__cl_read(g, us->b.dblk.m, nw * 4, w), sf;
    for (i = 0; i < nw && st == DG_OK; i++)
        for (x = w[i], j = 0; x; x >>= 1, j++)
            if ((x & 1u) && !dd->dev[i * 32 + j]) {
                DG_ASSERT(!dd->blk[i * 32 + j]);   /* (the batch began with a sync) */
                dd->dev[i * 32 + j] = 1;
                took++;
            }
    dd->ndev += took;
    dd->singles = 0;
    g->dev->batch_dir_blocks = took;
    sf = st == DG_OK ? dg__fill(g, us->b.dblk.m, 0, nw) : DG_OK;   /* (the marks are taken either way) */
    return st != DG_OK ? st : sf;
}

/* The kernels a batch launches once it has begun to write (made before: dg__kernel can fail). */
static const int dg__up_write_kernels[] = { DG__K_GATHER_PAGES, DG__K_UP_ROOM_WRITE, DG__K_UP_MOVE, DG__K_UP_LA_INIT, DG__K_UP_LA_GROW, DG__K_UP_INSERT,
                                            DG__K_UP_RM_MARK, DG__K_UP_RM_PAIR, DG__K_UP_RM_MOVE, DG__K_UP_RM_TRIM, DG__K_UP_RM_SHRINK,
                                            DG__K_SCATTER, DG__K_FILL_INT };

/* A batch's check, read back with its counters cnt: its first bad edge reported; the smallest
   weight of an insertion folded into *wmin. */
static dg_status dg__up_check(dg_graph *g, const dg_edge *he, cl_mem de, const uint32_t *cnt, int add, float *wmin,
                              const char *fn) {
    if (cnt[DG_UP_BAD] != 0xffffffffu) return dg__up_bad(g, he, de, cnt[DG_UP_BAD], 0, fn);
    if (cnt[DG_UP_DEAD] != 0xffffffffu) return dg__up_bad(g, he, de, cnt[DG_UP_DEAD], 1, fn);
    if (add && cnt[DG_UP_WMIN] != 0xffffffffu) {
        uint32_t b = cnt[DG_UP_WMIN] & 0x80000000u ? cnt[DG_UP_WMIN] & 0x7fffffffu : ~cnt[DG_UP_WMIN];
        float w;
        memcpy(&w, &b, sizeof w);
        if (w < *wmin) *wmin = w;
    }
    return DG_OK;
}

/* Batches of at most this many arcs are sorted in one work-group (dg_up_sort_small), larger
   ones by two radix sorts; (size_t)-1: DG_UP_SMALL on a GPU, none on a CPU device, which runs
   a work-group's barriers one work-item after another (a test hook). */
static size_t dg__up_small = (size_t)-1;

/* A batch of n edges (he on the host, or de on the device) added (add) or removed on the
   device; *changed = edges added or removed. fn names the call for messages. */
static dg_status dg__dev_batch(dg_graph *g, const dg_edge *he, cl_mem de, size_t n, int add, const char *fn,
                               size_t *changed) {
    dg__update_state *us;
    dg__dev *d;
    dg_status st = DG_OK;
    int two = g->nstores == 1, ns = g->nstores, si, moved = 0, fold;
    size_t m = two ? 2 * n : n, pages[2] = {0, 0}, lat[2] = {0, 0}, chg_cap = 0, spec, hspec[2] = {0, 0}, nrun;
    cl_uint un = (cl_uint)n, um = (cl_uint)m, ubound, utwo = (cl_uint)two, uadd = (cl_uint)add, urem = (cl_uint)!add;
    cl_uint uN = 0, want = (cl_uint)!add, slot;
    cl_int gen;
    uint32_t cnt[DG_UP_WORDS], N = 0;
    unsigned bits, ab;
    float wmin = g->wmin;
    double tr = 0;
    dg__room room[2];
    dg__droom droom[2];
    int32_t *chg = NULL;
    uint32_t *marks = NULL, *fbb = NULL;   /* the directory's block marks; the host's pages' blocks */
    size_t nfb_blocks = 0;
    cl_mem S[2], D[2], X[2], wp, xsel;
    if (changed) *changed = 0;
    if (n == 0) return DG_OK;
    if (n > 0x3fffffff) return dg__fail(g, DG_ERR_LIMIT, "%s: %zu edges in one device batch (at most 2^30 - 1)", fn, n);
    memset(room, 0, sizeof room);
    memset(droom, 0, sizeof droom);
    if ((st = dg__sync(g)) != DG_OK) return st;     /* the device holds every host change */
    d = g->dev;
    d->batch_room = d->batch_room_host = d->batch_dev = 0;
    d->batch_dir_blocks = 0;
    dg__up_trace(g, &tr, "start");
    if (!(us = DG__STATE(g, DG__MOD_UPDATE, dg__update_state))) return dg__oom(g, fn);
    if (us->gen >= 0x7ffffff0) { us->gen = 0; us->stamped[0] = us->stamped[1] = 0; }
    gen = ++us->gen;
    ubound = (cl_uint)g->id_bound;
    for (bits = 1; bits < 31 && ((size_t)1 << bits) < g->id_bound; bits++) {}
    /* every buffer first: nothing fails for memory once pages are written */
    for (si = 0; si < ns; si++) {
        DG__TRY(dg__up_stamps(g, us, si));
        DG__TRY(dg__fill(g, us->b.cbits[si].m, 0, (us->stamped[si] + 31) / 32));   /* (no page written yet) */
        DG__TRY(dg__buf_fit(g, &us->b.segdeg[si], m * 4));
        DG__TRY(dg__buf_fit(g, &us->b.hc[si], m * 4));
        DG__TRY(dg__buf_fit(g, &us->b.mc[si], m * 4));
        DG__TRY(dg__buf_fit(g, &us->b.llist[si], m * 4));
    }
    DG__TRY(dg__buf_fit(g, &us->b.keys, m * 4)); DG__TRY(dg__buf_fit(g, &us->b.vals, m * 4));
    DG__TRY(dg__buf_fit(g, &us->b.flag, (m + 1) * 4)); DG__TRY(dg__buf_fit(g, &us->b.sc, (m + 1) * 4));
    DG__TRY(dg__buf_fit(g, &us->b.sc2, (m + 1) * 4));
    DG__TRY(dg__buf_fit(g, &us->b.asrc, m * 4)); DG__TRY(dg__buf_fit(g, &us->b.adst, m * 4));
    DG__TRY(dg__buf_fit(g, &us->b.aw, m * 4)); DG__TRY(dg__buf_fit(g, &us->b.pos, m * 4));
    DG__TRY(dg__buf_fit(g, &us->b.nsrc, m * 4)); DG__TRY(dg__buf_fit(g, &us->b.ndst, m * 4));
    DG__TRY(dg__buf_fit(g, &us->b.nx, m * 4));
    DG__TRY(dg__buf_fit(g, &us->b.holes, m * 4)); DG__TRY(dg__buf_fit(g, &us->b.movers, m * 4));
    DG__TRY(dg__buf_fit(g, &us->b.cnt, DG_UP_WORDS * 4)); DG__TRY(dg__buf_fit(g, &us->b.tot, 4));
    if (add && us->b.dblk.cap < DG__DIR_MARK_WORDS(g) * 4) {   /* the block marks, all clear */
        DG__TRY(dg__buf_fit(g, &us->b.dblk, DG__DIR_MARK_WORDS(g) * 4));
        DG__TRY(dg__fill(g, us->b.dblk.m, 0, us->b.dblk.cap / 4));
    }
    if (ns == 2) {
        DG__TRY(dg__buf_fit(g, &us->b.isrc, m * 4)); DG__TRY(dg__buf_fit(g, &us->b.idst, m * 4));
        DG__TRY(dg__buf_fit(g, &us->b.ix, m * 4));
    }
    if (he) {
        DG__TRY(dg__buf_fit(g, &us->b.edges, n * sizeof(dg_edge)));
        DG__CL(clEnqueueWriteBuffer(d->queue, us->b.edges.m, CL_TRUE, 0, n * sizeof(dg_edge), he, 0, NULL, NULL));
        de = us->b.edges.m;
    }
    dg__up_trace(g, &tr, "buffers");
    memset(cnt, 0, sizeof cnt);
    cnt[DG_UP_BAD] = cnt[DG_UP_DEAD] = cnt[DG_UP_WMIN] = 0xffffffffu;
    /* (not blocking: cnt is next written by a blocking read of the same queue, and a failure
       waits for the queue) */
    DG__CL(clEnqueueWriteBuffer(d->queue, us->b.cnt.m, CL_FALSE, 0, sizeof cnt, cnt, 0, NULL, NULL));

    /* 1. check, make the arcs, sort them by (source, target), drop repeats */
    DG__TRY(dg__run(g, DG__K_UP_ARCS, n, DG__A(de), DG__A(un), DG__A(ubound), DG__A(d->dir.m), DG__A(utwo), DG__A(uadd), DG__A(uadd),
                  DG__A(us->b.keys.m), DG__A(us->b.vals.m), DG__A(us->b.cnt.m), DG__END));
    dg__up_trace(g, &tr, "sort-arcs");
    for (ab = 1; ((size_t)1 << ab) < m; ab++) {}
    if (m <= (dg__up_small != (size_t)-1 ? dg__up_small : d->cpu ? 0 : DG_UP_SMALL) && 2 * bits + ab <= 64) {
        cl_uint usb = bits, uab = ab;
        DG__TRY(dg__run(g, DG__K_UP_SORT_SMALL, d->wg, DG__A(de), DG__A(um), DG__A(utwo), DG__A(usb), DG__A(uab),
                        DG__A(us->b.keys.m), DG__A(us->b.vals.m), DG__END));
    } else {
        DG__TRY(dg__sort_pairs(g, us->b.keys.m, us->b.vals.m, m, bits));
        dg__up_trace(g, &tr, "sort-1");
        DG__TRY(dg__run(g, DG__K_UP_SRCKEYS, m, DG__A(de), DG__A(us->b.vals.m), DG__A(um), DG__A(utwo), DG__A(us->b.keys.m), DG__END));
        DG__TRY(dg__sort_pairs(g, us->b.keys.m, us->b.vals.m, m, bits));
    }
    dg__up_trace(g, &tr, "sort-2");
    DG__TRY(dg__run(g, DG__K_UP_UNIQUE, m + 1, DG__A(de), DG__A(us->b.keys.m), DG__A(us->b.vals.m), DG__A(um), DG__A(utwo),
                  DG__A(us->b.cnt.m), DG__A(us->b.flag.m), DG__END));
    DG__TRY(dg__scan(g, us->b.flag.m, us->b.sc.m, m + 1, us->b.tot.m, 0));
    DG__TRY(dg__run(g, DG__K_UP_GATHER, m, DG__A(de), DG__A(us->b.keys.m), DG__A(us->b.vals.m), DG__A(us->b.flag.m), DG__A(us->b.sc.m),
                  DG__A(um), DG__A(utwo), DG__A(us->b.asrc.m), DG__A(us->b.adst.m), DG__A(us->b.aw.m), DG__A(us->b.pos.m), DG__END));
    dg__up_trace(g, &tr, "sort");
    /* 2. look the arcs up in the out-lists; keep the absent ones (add) or the present ones */
    DG__TRY(dg__up_find(g, 0, us->b.asrc.m, us->b.adst.m, us->b.sc.m, um, m, us->b.flag.m, us->b.sc2.m, us->b.pos.m));
    dg__up_trace(g, &tr, "find");
    DG__TRY(dg__run(g, DG__K_UP_PICK, m + 1, DG__A(us->b.pos.m), DG__A(us->b.sc.m), DG__A(um), DG__A(um), DG__A(want), DG__A(us->b.flag.m), DG__END));
    DG__TRY(dg__scan(g, us->b.flag.m, us->b.sc2.m, m + 1, us->b.tot.m, 0));
    xsel = add ? us->b.aw.m : us->b.pos.m;
    DG__TRY(dg__run(g, DG__K_UP_SELECT, m, DG__A(us->b.asrc.m), DG__A(us->b.adst.m), DG__A(xsel),
                  DG__A(us->b.flag.m), DG__A(us->b.sc2.m), DG__A(um), DG__A(utwo), DG__A(us->b.nsrc.m),
                  DG__A(us->b.ndst.m), DG__A(us->b.nx.m), DG__A(us->b.cnt.m), DG__END));
    DG__CL(clEnqueueReadBuffer(d->queue, us->b.sc2.m, CL_FALSE, m * 4, 4, &N, 0, NULL, NULL));
    /* The check and the arcs' count: read here, or, for one store, with the plan's counts
       below (insertion) or the counts at the end (removal): one wait fewer. The kernels read
       the count on the device, which is 0 for a batch that fails its check (dg_up_unique):
       nothing is written to the graph before the host reads the check. */
    fold = ns == 1;
    if (!fold) {
        DG__CL(clEnqueueReadBuffer(d->queue, us->b.cnt.m, CL_TRUE, 0, sizeof cnt, cnt, 0, NULL, NULL));
        DG__TRY(dg__up_check(g, he, de, cnt, add, &wmin, fn));
        if (N == 0) goto done;
        uN = (cl_uint)N;
    }
    nrun = fold ? m : N;   /* work-items of the kernels that read the count on the device */
    dg__up_trace(g, &tr, "select");
    S[0] = us->b.nsrc.m; D[0] = us->b.ndst.m; X[0] = us->b.nx.m;
    if (ns == 2) {   /* the in-store's arcs: sorted by target (then source: the sort is stable) */
        S[1] = us->b.isrc.m; D[1] = us->b.idst.m; X[1] = us->b.ix.m;
        DG__TRY(dg__run(g, DG__K_UP_KEYS, N, DG__A(us->b.ndst.m), DG__A(uN), DG__A(us->b.keys.m), DG__A(us->b.vals.m), DG__END));
        DG__TRY(dg__sort_pairs(g, us->b.keys.m, us->b.vals.m, N, bits));
        DG__TRY(dg__run(g, DG__K_UP_PERMUTE, N, DG__A(us->b.vals.m), DG__A(uN), DG__A(us->b.ndst.m), DG__A(us->b.nsrc.m),
                      DG__A(us->b.nx.m), DG__A(S[1]), DG__A(D[1]), DG__A(X[1]), DG__END));
        if (!add)   /* the places in the in-lists */
            DG__TRY(dg__up_find(g, 1, S[1], D[1], us->b.sc2.m, um, m, us->b.flag.m, us->b.sc.m, X[1]));
    }
    dg__up_trace(g, &tr, "in-arcs");
    /* 3. plan per store: which lists take their arcs in place; the others' pages get room
       (insertion); large lists that shrink (removal) are listed */
    for (si = 0; si < ns; si++) {
        cl_uint lkeep = DG__LH_KEEP, lslot = DG_UP_LONG + (cl_uint)si;
        slot = DG_UP_STAMPED + (cl_uint)si;
        DG__TRY(dg__run(g, DG__K_UP_PLAN, nrun, DG__A(S[si]), DG__A(us->b.sc2.m), DG__A(um), DG__A(urem),
                        dg__adj(si, 0), DG__A(us->b.segdeg[si].m),
                      DG__A(us->b.hstamp[si].m), DG__A(gen), DG__A(us->b.hc[si].m), DG__A(us->b.mc[si].m),
                      DG__A(us->b.hlist[si].m), DG__A(us->b.cnt.m), DG__A(slot), DG__A(us->b.llist[si].m),
                      DG__A(lkeep), DG__A(lslot), DG__END));
    }
    if (add) DG__CL(clEnqueueReadBuffer(d->queue, us->b.cnt.m, CL_TRUE, 0, sizeof cnt, cnt, 0, NULL, NULL));
    if (fold && add) {
        DG__TRY(dg__up_check(g, he, de, cnt, add, &wmin, fn));
        if (N == 0) goto done;
        uN = (cl_uint)N;
    }
    dg__up_trace(g, &tr, "plan");
    /* 4. room (insertion): planned on the device (the pages it leaves to the host planned
       there), memory reserved */
    for (si = 0; si < ns && add; si++)
        if (cnt[DG_UP_STAMPED + si]) DG__TRY(dg__droom_plan(g, us, si, cnt[DG_UP_STAMPED + si], S[si], uN, &droom[si]));
    if (droom[0].np || droom[1].np)
        DG__CL(clEnqueueReadBuffer(d->queue, us->b.cnt.m, CL_TRUE, 0, sizeof cnt, cnt, 0, NULL, NULL));
    dg__up_trace(g, &tr, "room-dplan");
    for (si = 0; si < ns && add; si++) {
        DG__TRY(dg__droom_fallback(g, us, si, cnt[DG_UP_FALLBACK + si], &droom[si], &tr));
        dg__up_trace(g, &tr, "room-fb");
        if (droom[si].nfb)
            DG__TRY(dg__room_plan(g, us, si, droom[si].fb, droom[si].nfb, S[si], uN, &room[si], &pages[si], &lat[si], &tr));
    }
    dg__up_trace(g, &tr, "room-count");
    for (si = 0; si < ns && add; si++) {   /* and the mirror's room for what is added */
        dg__store *s = &g->st[si];
        dg__dstore *ms = &d->st[si];
        size_t reach;
        DG__TRY(dg__reserve_pages(g, s, pages[si] + droom[si].C));
        DG__TRY(dg__latab_reserve(g, s, lat[si]));
        if (room[si].np && pages[si]) {   /* (at most: the room's new pages, ordinary ones too) */
            if (!(room[si].fresh = (int32_t *)dg__alloc(g, 2 * pages[si] * sizeof(int32_t)))) { st = dg__oom(g, fn); goto done; }
            room[si].fresh_cap = pages[si];
            DG__TRY(dg__buf_fit(g, &us->b.rfresh[si], 2 * pages[si] * 4));
        }
        if (room[si].np) {                /* (at most a pair a list) */
            if (!(room[si].grow = (int32_t *)dg__alloc(g, 2 * room[si].nl * sizeof(int32_t)))) { st = dg__oom(g, fn); goto done; }
            DG__TRY(dg__buf_fit(g, &us->b.rgrow[si], 2 * room[si].nl * 4));
        }
        /* the mirror holds the pages this batch can reach (free ones first, then past the
           high-water mark), not the host's whole capacity: near the device's largest buffer
           that overshoot (a growth of a half) failed a Kronecker scale-27 load */
        reach = pages[si] + droom[si].C;
        reach = (size_t)s->page_hw + (reach > s->nfree ? reach - s->nfree : 0);
        if (reach > s->page_cap) reach = s->page_cap;
        DG__TRY(dg__buf_grow(g, &ms->pool, reach * g->P * 4, ms->pool.cap));
        dg__pos_width(g);
        if (s->wpool) DG__TRY(dg__buf_grow(g, &ms->wpool, reach * g->P * 4, ms->wpool.cap));
        DG__TRY(dg__buf_grow(g, &ms->idx, reach * sizeof(dg__pindex), ms->idx.cap));
        DG__TRY(dg__buf_grow(g, &ms->latab, (s->latab_cap ? s->latab_cap : 1) * 4, ms->latab.cap));
        DG__TRY(dg__up_stamps(g, us, si));   /* the new pages too (the stamps are not needed again) */
    }
    /* and what can fail once writing began, first: the kernels (made on first use) and the
       host's list of the pages written */
    {
        size_t wk;
        cl_kernel k = NULL;
        for (wk = 0; wk < sizeof dg__up_write_kernels / sizeof dg__up_write_kernels[0]; wk++)
            DG__TRY(dg__kernel(g, dg__up_write_kernels[wk], 0, &k));
    }
    {
        size_t cap = g->st[0].page_cap > g->st[1].page_cap ? g->st[0].page_cap : g->st[1].page_cap;
        chg_cap = 2 * (cap ? cap : 1);
        if (!(chg = (int32_t *)dg__alloc(g, (chg_cap + 4 * DG__UP_HSPEC) * sizeof(int32_t)))) { st = dg__oom(g, fn); goto done; }
    }
    if (add) {   /* the room of the directory's block marks, and the blocks of the host's pages' lists */
        size_t nfbb = 0;
        for (si = 0; si < ns; si++) if (room[si].np) nfbb += dg__page_blocks(g, si, droom[si].fb, droom[si].nfb_ord, NULL);
        if (!(marks = (uint32_t *)dg__alloc(g, (DG__DIR_MARK_WORDS(g) + nfbb + 1) * 4))) { st = dg__oom(g, fn); goto done; }
        fbb = marks + DG__DIR_MARK_WORDS(g);
        for (si = 0; si < ns; si++)
            if (room[si].np) nfb_blocks += dg__page_blocks(g, si, droom[si].fb, droom[si].nfb_ord, fbb + nfb_blocks);
        if (nfb_blocks > dg__fresh_block_runs)   /* (their read below may gather) */
            DG__TRY(dg__gather_reserve(g, nfb_blocks, (size_t)DG__DIR_BLOCK * 2 * (size_t)g->nstores * 4));
    }
    dg__up_trace(g, &tr, "room-plan");
    /* the lists the device moved: their directory blocks are the device's now. The host's own
       layouts (dg__room_layout below) write entries of the lists on their pages: those blocks
       are read back first (the batch's first sync sent every host change, so none of them
       holds a change of the host's) */
    for (si = 0; si < ns && add; si++) {
        DG__TRY(dg__droom_write(g, us, si, &droom[si], &tr));
        moved += droom[si].np != droom[si].nfb;
    }
    dg__up_trace(g, &tr, "room-lists");
    if (moved) DG__TRY(dg__dir_take(g, us, marks));   /* (a wait: the new pages' first lists are in too) */
    for (si = 0; si < ns && add; si++) if (droom[si].np != droom[si].nfb) dg__droom_firsts(g, si, &droom[si]);
    dg__up_trace(g, &tr, "room-take-dir");
    DG__TRY(dg__fresh_blocks(g, fbb, nfb_blocks, 2));   /* (gathered into the room reserved above) */
    dg__up_trace(g, &tr, "room-device");
    for (si = 0; si < ns && add; si++) DG__TRY(dg__room_copy(g, us, si, &room[si]));
    dg__up_trace(g, &tr, "room-copy");
    /* 5. write: room where it lacks (the layout on the host, synced, then the entries moved on
       the device), the device's lists, then the host's */
    if (add && (room[0].np || room[1].np)) {
        for (si = 0; si < ns; si++) if (room[si].np) dg__room_layout(g, &g->st[si], &room[si], 1, NULL, NULL);
        dg__up_trace(g, &tr, "room-host");
        DG__TRY(dg__sync(g));
        dg__up_trace(g, &tr, "room-sync");
        for (si = 0; si < ns; si++) DG__TRY(dg__room_move(g, us, si, &room[si]));
        dg__up_trace(g, &tr, "room-move");
    }
    for (si = 0; si < ns; si++) {
        slot = DG_UP_CHANGED + (cl_uint)si;
        wp = d->st[si].wpool.m;
        if (add) {
            DG__TRY(dg__run(g, DG__K_UP_INSERT, N, DG__A(S[si]), DG__A(D[si]), DG__A(X[si]), DG__A(uN), dg__adj(si, 0), DG__A(wp),
                          DG__A(us->b.segdeg[si].m), DG__A(us->b.cbits[si].m),
                          DG__A(us->b.clist[si].m), DG__A(us->b.cnt.m), DG__A(slot), DG__END));
            continue;
        }
        /* (the count on the device: sc2[m]) */
        DG__TRY(dg__run(g, DG__K_UP_RM_MARK, nrun, DG__A(S[si]), DG__A(X[si]), DG__A(us->b.sc2.m), DG__A(um), dg__adj(si, 0), DG__END));
        DG__TRY(dg__run(g, DG__K_UP_RM_PAIR, nrun, DG__A(S[si]), DG__A(X[si]), DG__A(us->b.sc2.m), DG__A(um), dg__adj(si, 0),
                        DG__A(us->b.segdeg[si].m), DG__A(us->b.hc[si].m), DG__A(us->b.mc[si].m), DG__A(us->b.holes.m),
                        DG__A(us->b.movers.m), DG__END));
        DG__TRY(dg__run(g, DG__K_UP_RM_MOVE, nrun, DG__A(S[si]), DG__A(us->b.sc2.m), DG__A(um), dg__adj(si, 0), DG__A(wp),
                        DG__A(us->b.hc[si].m), DG__A(us->b.holes.m), DG__A(us->b.movers.m), DG__A(us->b.cbits[si].m),
                        DG__A(us->b.clist[si].m), DG__A(us->b.cnt.m), DG__A(slot), DG__END));
        DG__TRY(dg__run(g, DG__K_UP_RM_TRIM, nrun, DG__A(S[si]), DG__A(us->b.sc2.m), DG__A(um), dg__adj(si, 0),
                        DG__A(us->b.segdeg[si].m), DG__A(us->b.cbits[si].m), DG__A(us->b.clist[si].m), DG__A(us->b.cnt.m),
                        DG__A(slot), DG__END));
        if (g->st[si].large_lists) {   /* the index entries of large lists left with fewer pages (counted on the device) */
            cl_uint hslot = DG_UP_STAMPED + (cl_uint)si, dso = 2 * (cl_uint)si;
            DG__TRY(dg__run(g, DG__K_UP_RM_SHRINK, (nrun < 1024 ? nrun : 1024) * d->wg, DG__A(us->b.hlist[si].m), DG__A(us->b.cnt.m),
                            DG__A(hslot), DG__A(d->dir.m), DG__A(dso), DG__A(d->st[si].idx.m), DG__A(d->st[si].latab.m), DG__END));
        }
    }
    dg__up_trace(g, &tr, "dev-write");
    dg__up_trace(g, &tr, "host-write");
    /* 6. ownership: the pages the device wrote are stale here (the counts and the first of the
       first store's pages in one wait) */
    spec = us->b.clist[0].cap / 4 < DG__UP_SPEC ? us->b.clist[0].cap / 4 : DG__UP_SPEC;
    if (spec > chg_cap) spec = chg_cap;
    for (si = 0; si < ns && !add; si++) {   /* (and the first large lists a removal shrank: chg + chg_cap) */
        hspec[si] = g->st[si].large_lists ? us->b.hlist[si].cap / 8 : 0;
        if (hspec[si] > DG__UP_HSPEC) hspec[si] = DG__UP_HSPEC;
        if (hspec[si])
            DG__CL(clEnqueueReadBuffer(d->queue, us->b.hlist[si].m, CL_FALSE, 0, hspec[si] * 8,
                                       chg + chg_cap + 2 * DG__UP_HSPEC * (size_t)si, 0, NULL, NULL));
    }
    DG__CL(clEnqueueReadBuffer(d->queue, us->b.cnt.m, spec ? CL_FALSE : CL_TRUE, 0, sizeof cnt, cnt, 0, NULL, NULL));
    if (spec) DG__CL(clEnqueueReadBuffer(d->queue, us->b.clist[0].m, CL_TRUE, 0, spec * 4, chg, 0, NULL, NULL));
    if (fold && !add) {   /* (a batch that failed its check wrote nothing) */
        DG__TRY(dg__up_check(g, he, de, cnt, add, &wmin, fn));
        if (N == 0) goto done;
    }
    dg__up_trace(g, &tr, "counts");
    for (si = 0; si < ns && st == DG_OK; si++) {   /* (chg holds twice the pages of a store: made before the writes) */
        dg__store *s = &g->st[si];
        size_t nc = cnt[DG_UP_CHANGED + si], nl = cnt[DG_UP_LONG + si], i, c, have = si == 0 ? spec : 0;
        size_t words = ((size_t)s->page_cap + 31) / 32;
        if (dg__stale_from == 2 || (dg__stale_from == 0 && nc > have && nc - have > words)) {   /* (fewer bytes) */
            if ((st = dg__cl_read(g, us->b.cbits[si].m, words * 4, chg)) == DG_OK) dg__mark_stale_bits(s, (const uint32_t *)chg, words);
        } else {
            if (nc > have) st = dg__cl_read_at(g, us->b.clist[si].m, have * 4, (nc - have) * 4, chg + have);
            if (nc && st == DG_OK) dg__mark_stale(s, chg, nc);
        }
        dg__up_trace(g, &tr, "stale-mark");
        /* the hash indexes of the lists it changed go: those the device listed (a lookup
           each), or all of them when it listed many (dg__lh_share) */
        if (!s->nlh || !nl || st != DG_OK) continue;
        if (dg__lh_share && nl >= (s->nlh + dg__lh_share - 1) / dg__lh_share) { dg__lh_free_all(g, s); continue; }
        for (i = 0; i < nl && st == DG_OK; i += c) {
            size_t j;
            c = nl - i < chg_cap ? nl - i : chg_cap;
            if ((st = dg__cl_read_at(g, us->b.llist[si].m, i * 4, c * 4, chg)) != DG_OK) break;
            for (j = 0; j < c; j++) {
                if (j + DG__PF_LIST < c && (size_t)chg[j + DG__PF_LIST] < s->lh_cap) DG__PREFETCH(&s->lh[chg[j + DG__PF_LIST]]);
                dg__lh_free(g, s, chg[j]);
            }
        }
    }
    dg__up_trace(g, &tr, "stale-index");
    for (si = 0; si < ns && !add && st == DG_OK; si++) {   /* large lists left with fewer pages */
        size_t k = cnt[DG_UP_STAMPED + si], i;
        const int32_t *hl = chg + chg_cap + 2 * DG__UP_HSPEC * (size_t)si;   /* (read with the counts) */
        if (!k) continue;
        if (k > hspec[si]) {
            if ((st = dg__cl_read(g, us->b.hlist[si].m, 2 * k * 4, chg)) != DG_OK) break;
            hl = chg;
        }
        for (i = 0; i < k; i++) dg__shrink_large(g, &g->st[si], hl[2 * i], hl[2 * i + 1]);
    }
    dg__up_trace(g, &tr, "stale");
    if (add) { g->narcs += N; g->nedges += cnt[DG_UP_EDGES]; g->ver_ins++; }
    else { g->narcs -= N; g->nedges -= cnt[DG_UP_EDGES]; g->ver_del++; }
    if (changed) *changed = cnt[DG_UP_EDGES];
    d->batch_room = droom[0].np + droom[1].np;
    d->batch_room_host = room[0].np + room[1].np;
    d->batch_dev = (size_t)N * (size_t)ns;
    d->gen++;                                    /* what caches of the graph keep is old */
    if (st == DG_OK) st = dg__sync(g);           /* released pages, index entries */
    dg__up_trace(g, &tr, "sync");
done:
    if (st == DG_OK && add && wmin < g->wmin) g->wmin = wmin;
    if (st != DG_OK && d) clFinish(d->queue);    /* (reads into droom's arrays may be pending) */
    for (si = 0; si < 2; si++) { dg__room_free(g, &room[si]); dg__droom_free(g, &droom[si]); }
    dg__free(g, chg);
    dg__free(g, marks);
    dg__up_trim(g);
    return st;
}

/* A batch of n dg_edge in the device buffer edges: size checked. */
static dg_status dg__check_cl_batch(dg_graph *g, cl_mem edges, size_t n, const char *fn) {
    size_t size = 0;
    if (!edges) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: NULL edge buffer", fn);
    if (n > (size_t)-1 / sizeof(dg_edge)) return dg__fail(g, DG_ERR_LIMIT, "%s: batch too large", fn);
    if (clGetMemObjectInfo(edges, CL_MEM_SIZE, sizeof size, &size, NULL) != CL_SUCCESS || size < n * sizeof(dg_edge))
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: the buffer holds %zu bytes, %zu edges need %zu", fn,
                        size, n, n * sizeof(dg_edge));
    return DG_OK;
}

/* dg_add_edges_cl (add = 1) and dg_remove_edges_cl: on the device, or (device_batches = -1)
   read back and applied on the host. */
static dg_status dg__edges_cl(dg_graph *g, cl_mem edges, size_t n, size_t *changed, int add) {
    const char *fn = add ? "dg_add_edges_cl" : "dg_remove_edges_cl";
    dg_edge *e = NULL;
    dg_status st = DG_OK;
    if (changed) *changed = 0;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    DG__TRY(dg__check_cl_batch(g, edges, n, fn));
    if (g->clog.results && n) {      /* results need the batch's ends: read them (12 bytes an edge) */
        if (!(e = (dg_edge *)dg__alloc(g, n * sizeof(dg_edge)))) return dg__oom(g, fn);
        DG__TRY(dg__cl_read(g, edges, n * sizeof(dg_edge), e));
        if (g->desc.device_batches < 0) goto host;
        dg__clog_edges(g, add ? DG__CH_INSERT : DG__CH_DELETE, e, n);
        dg__free(g, e);
        e = NULL;
    }
    if (g->desc.device_batches >= 0 && g->ndev <= 1 && (g->dev || dg__devices_n(g) <= 1))   /* (several: the host) */
        return dg__dev_batch(g, NULL, edges, n, add, fn, changed);
    if (!g->dev) DG__TRY(dg__dev_init(g));
    if (!(e = (dg_edge *)dg__alloc(g, n ? n * sizeof(dg_edge) : 1))) return dg__oom(g, fn);
    DG__TRY(dg__cl_read(g, edges, n * sizeof(dg_edge), e));
host:
    st = add ? dg_add_edges(g, e, n, changed) : dg_remove_edges(g, e, n, changed);
done:
    dg__free(g, e);
    return st;
}
DG_API dg_status dg_add_edges_cl(dg_graph *g, cl_mem edges, size_t n, size_t *added) {
    return dg__edges_cl(g, edges, n, added, 1);
}
DG_API dg_status dg_remove_edges_cl(dg_graph *g, cl_mem edges, size_t n, size_t *removed) {
    return dg__edges_cl(g, edges, n, removed, 0);
}

/* =========================================================================
   Breadth-first search   >>bfs
   =========================================================================
   dg_bfs syncs, then runs one strategy; every strategy keeps the distances on the device in
   bs->b.dist and reads back as little as it can per level (see dg_bfs_stats.host_round_trips). */
/* The BFS module's device state. */
typedef struct dg__bfs_state {
    struct {
        dg__buf dist, parent, q[2], vis, front, next, third, lv, hubs, flag;
        dg__buf mask[3];   /* MASK: frontier, updating, visited; QUEUE: the user data */
        dg__buf seeds;     /* the sources and targets (dg__seeds) */
        dg__buf xout, xin, xbm;  /* several devices (>>shard): the others' ids found, those of the
                                    others' outboxes, the others' ids found as a bitmap */
    } b;
} dg__bfs_state;
typedef struct dg__bfs_run {
    const dg__seeds *S;
    int early;                   /* the strategy stops at the targets (they are marked) */
    int csr, want_parent;
    uint32_t levels, bu_levels, rt;
    uint64_t reached, edges;
    int parents_done;            /* the strategy wrote bs->b.parent itself */
    int dist_in_data;            /* DG_BFS_QUEUE: distances live at entry 1.. of bs->b.mask[2] */
} dg__bfs_run;

/* The start (dg_bfs_init): the seeds uploaded; the sources at distance 0 in dist (from word
   doff on), in the parents, the visited bitmap vis, queue q or the masks of DG_BFS_MASK (each
   NULL where not used), with degree sum m0; the targets marked when the strategy stops early. */
static dg_status dg__bfs_start(dg_graph *g, dg__bfs_run *r, cl_mem dist, cl_uint doff, cl_mem vis,
                               cl_mem q, cl_mem fmask, cl_mem vmask, cl_uint m0) {
    dg__bfs_state *bs = (dg__bfs_state *)g->dev->mod[DG__MOD_BFS].state;
    const dg__seeds *S = r->S;
    dg_status st = DG_OK;
    cl_uint ring = DG_BFS_RING, ns = (cl_uint)S->ns, nt = r->early ? (cl_uint)S->nt : 0u;
    cl_uint stop = r->early && S->targets && S->nt == 0;
    cl_mem par = r->want_parent ? bs->b.parent.m : NULL;
    DG__TRY(dg__buf_fit(g, &bs->b.lv, DG_LV_ALL_WORDS * 4));
    DG__TRY(dg__buf_fit(g, &bs->b.seeds, (S->ns + S->nt) * 4));
    DG__TRY(dg__clwrite(g, bs->b.seeds.m, S->v, (S->ns + S->nt) * 4));
    DG__TRY(dg__run(g, DG__K_BFS_INIT, (size_t)ns + nt, DG__A(dist), DG__A(doff), DG__A(par), DG__A(vis),
                    DG__A(q), DG__A(fmask), DG__A(vmask), DG__A(bs->b.lv.m), DG__A(ring),
                    DG__A(bs->b.seeds.m), DG__A(ns), DG__A(nt), DG__A(m0), DG__A(stop), DG__END));
done:
    return st;
}

/* Deep searches (kernels/40_bfs.cl, dg_bfs_deep): work-groups that all run at once, one per
   compute unit (a CPU device: one group), and how long a group waits at a barrier before it
   decides the others are not running (polls). Test hooks: groups (0: as above, -1: no deep
   kernel) and the polls. */
static int dg__bfs_deep_groups = 0;
static cl_uint dg__bfs_deep_spins = 1u << 20;
static size_t dg__deep_groups(const dg__dev *d) {
    return dg__bfs_deep_groups > 0 ? (size_t)dg__bfs_deep_groups : d->cpu ? 1 : d->cu;
}

/* Levels L, L+1, ... in one launch of dg_bfs_deep, from a frontier of nf vertices of degree
   sum mf with no list longer than DG_BFS_HUB; lvh gets the level buffer back. *done: the levels
   it expanded in full (0: the caller runs level L the ordinary way); *finished: the search
   ended. The counters of r and *mu are advanced. */
static dg_status dg__bfs_deep(dg_graph *g, dg__bfs_run *r, cl_kernel k, uint32_t L, int bottom_up,
                              double alpha, double *mu, uint64_t prev_nf, cl_uint *lvh,
                              uint32_t *done, int *finished) {
    dg__bfs_state *bs = (dg__bfs_state *)g->dev->mod[DG__MOD_BFS].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    const cl_uint *ctl = lvh + DG_LV_DEEP;
    cl_uint ring = DG_BFS_RING, maxl = 1u << 24, bu = bottom_up != 0, prev = (cl_uint)prev_nf;
    cl_uint spins = dg__bfs_deep_spins;
    cl_int lvl = (cl_int)L;
    cl_float fa = (cl_float)alpha;
    cl_ulong mu64 = *mu > 0 ? (cl_ulong)*mu : 0;
    cl_mem par = r->want_parent ? bs->b.parent.m : NULL;
    size_t G = dg__deep_groups(d);
    DG__TRY(dg__fill_bytes(g, bs->b.lv.m, 0, DG_LV_DEEP * 4, DG_DEEP_WORDS * 4));
    DG__TRY(dg__args(g, k, dg__adj(0, r->csr), DG__A(bs->b.q[0].m), DG__A(bs->b.q[1].m),
                           DG__A(bs->b.lv.m), DG__A(ring), DG__A(lvl), DG__A(maxl),
                           DG__A(bs->b.dist.m), DG__A(par), DG__A(bs->b.vis.m), DG__A(bu),
                           DG__A(fa), DG__A(mu64), DG__A(prev), DG__A(spins), DG__END));
    DG__TRY(dg__launch(g, k, G * d->wg, d->wg));
    DG__CL(clEnqueueReadBuffer(d->queue, bs->b.lv.m, CL_TRUE, 0, DG_LV_ALL_WORDS * 4, lvh, 0, NULL, NULL));
    r->rt++;
    if ((ctl[DG_DEEP_GEN] & DG_DEEP_ABORT) || ctl[DG_DEEP_RAN] != G) {
        char msg[200];
        snprintf(msg, sizeof msg, "dyngraph: dg_bfs: %u of %u work-groups ran at once; levels now "
                 "take one launch each on this device", (unsigned)ctl[DG_DEEP_RAN], (unsigned)G);
        dg__log(g, DG_LOG_WARNING, msg);
        d->deep_off = 1;
    }
    *done = ctl[DG_DEEP_DONE];
    *finished = ctl[DG_DEEP_FINISHED] != 0;
    r->levels += ctl[DG_DEEP_LEVELS];
    r->reached += ctl[DG_DEEP_REACHED] | (uint64_t)ctl[DG_DEEP_REACHED + 1] << 32;
    r->edges += ctl[DG_DEEP_INSPECTED] | (uint64_t)ctl[DG_DEEP_INSPECTED + 1] << 32;
    *mu -= (double)(ctl[DG_DEEP_DEGREES] | (uint64_t)ctl[DG_DEEP_DEGREES + 1] << 32);
done:
    return st;
}

/* Levels whose direction the device decides (kernels/40_bfs.cl, dg_bfs_mode): the first level
   of the queue, its direction (DG_BFS_MODE_*; 0: the host decides, none of this), the
   out-degrees not yet reached after it, the rule's alpha and n / beta, the bitmaps' words. */
typedef struct dg__bfs_ctl {
    cl_int level0;
    cl_uint mode0;
    cl_ulong mu0;
    cl_float alpha, nbeta;
    cl_uint words;
    cl_uint dist0;   /* level0 runs bottom-up after a top-down level or one not queued: its frontier
                        as dist == level0 */
    cl_uint lo, hi;  /* the bottom-up levels look at the ids [lo, hi): 0 and 0 (all), or a
                        device's (>>shard) */
} dg__bfs_ctl;
/* The arguments of dg_bfs_td, dg_bfs_td_hubs and dg_bfs_bu that change from level to level
   (their positions, as in kernels/40_bfs.cl). */
enum { DG__TD_QIN = 5, DG__TD_QOUT = 6, DG__TD_LEVEL = 9, DG__TD_HUB = 14, DG__TD_ZERO = 16,
       DG__HUB_QOUT = 6, DG__HUB_LEVEL = 9,
       DG__BU_FRONT = 7, DG__BU_NEXT = 8, DG__BU_QOUT = 12, DG__BU_LEVEL = 15, DG__BU_ZERO = 17 };
/* Test hook: whether the device decides the directions of queued levels (-1: on a GPU; a CPU
   device reads its counters back at no cost, and there empty launches of the other direction
   cost more than they save: PoCL, Kronecker scale 20, 42.7 ms against 48.0; 1: always; 0: never,
   the host decides every level, one read-back a level). */
static int dg__bfs_dctl = -1;
/* Test hook: which kernels run the levels of DIRECTION_OPT and TOP_DOWN (-1: dg_bfs_td_flat and
   dg_bfs_bu_flat on a CPU device, whose work-items run one after another, where barriers cost
   most; dg_bfs_td and dg_bfs_bu on others; 1: the flat ones everywhere; 0: never). */
static int dg__bfs_flat = -1;
/* Whether a module's flat kernels (no local memory, no barriers) run, from its test hook
   (dg__bfs_flat, dg__sssp_flat: -1 on a CPU device, 1 always, 0 never). */
static int dg__flat_on(int hook, const dg__dev *d) { return hook > 0 || (hook < 0 && d->cpu); }

/* Level L's direction (1: bottom-up) after the level before's (bu), Beamer's rule in the
   kernels' float arithmetic (dg_bfs_mode), so that host and device decide alike: top-down
   turns bottom-up when the frontier's out-degrees mf x alpha pass the out-degrees not yet
   reached mu and the frontier grew; bottom-up turns top-down when the frontier nf is under
   n / beta and shrank. */
static int dg__bfs_dir(int bu, uint64_t nf, uint64_t mf, uint64_t prev_nf, double mu, float alpha, float nbeta) {
    if (!bu) return (float)mf * alpha > (float)(mu > 0 ? mu : 0) && nf > prev_nf;
    return !((float)nf < nbeta && nf < prev_nf);
}

/* A top-down frontier far from turning bottom-up (a quarter of the rule's threshold): levels
   that stay so run many to a read-back with groups sized to them. */
static int dg__bfs_narrow(int bu, uint64_t mf, double mu, double alpha) {
    return !bu && (double)mf * alpha * 4 < mu;
}

/* The arguments of dg_bfs_td and dg_bfs_td_hubs for `level`: hub (the hub threshold, or
   0xffffffff), zero (the bitmap to clear: NULL unless c has a mode). */
static dg_status dg__bfs_td_args(dg_graph *g, const dg__bfs_run *r, cl_kernel ktd, cl_kernel khub, uint32_t level,
                                 cl_uint hub, cl_mem zero, const dg__bfs_ctl *c) {
    dg__bfs_state *bs = (dg__bfs_state *)g->dev->mod[DG__MOD_BFS].state;
    cl_uint ring = DG_BFS_RING, want_m = 1;
    cl_int lvl = (cl_int)level;
    cl_mem par = r->want_parent ? bs->b.parent.m : NULL;
    dg_status st = dg__args(g, ktd, dg__adj(0, r->csr), DG__A(bs->b.q[level & 1].m), DG__A(bs->b.q[(level + 1) & 1].m),
                            DG__A(bs->b.lv.m), DG__A(ring), DG__A(lvl), DG__A(bs->b.dist.m), DG__A(par),
                            DG__A(bs->b.vis.m), DG__A(bs->b.hubs.m), DG__A(hub), DG__A(want_m),
                            DG__A(zero), DG__A(c->words), DG__A(c->level0), DG__A(c->mode0), DG__A(c->mu0),
                            DG__A(c->alpha), DG__A(c->nbeta), DG__END);
    if (st != DG_OK) return st;
    return dg__args(g, khub, dg__adj(0, r->csr), DG__A(bs->b.hubs.m), DG__A(bs->b.q[(level + 1) & 1].m),
                    DG__A(bs->b.lv.m), DG__A(ring), DG__A(lvl), DG__A(bs->b.dist.m), DG__A(par),
                    DG__A(bs->b.vis.m), DG__A(want_m), DG__END);
}
/* The arguments of dg_bfs_bu for `level`: the frontier's bitmap, the next level's, and the one
   to clear (NULL unless c has a mode). */
static dg_status dg__bfs_bu_args(dg_graph *g, const dg__bfs_run *r, cl_kernel kbu, uint32_t level, cl_mem front,
                                 cl_mem next, cl_mem zero, const dg__bfs_ctl *c) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__bfs_state *bs = (dg__bfs_state *)g->dev->mod[DG__MOD_BFS].state;
    dg__dev *d = g->dev;
    cl_uint ring = DG_BFS_RING, un = c->hi ? c->hi : (cl_uint)g->id_bound;
    cl_int lvl = (cl_int)level;
    cl_mem par = r->want_parent ? bs->b.parent.m : NULL;
    cl_mem odir = r->csr ? cs->b.csr_row[0].m : d->dir.m, opool = r->csr ? cs->b.csr_col[0].m : d->st[0].pool.m;
    return dg__args(g, kbu, dg__adj(1, r->csr), DG__A(odir), DG__A(opool), DG__A(front), DG__A(next),
                    DG__A(bs->b.vis.m), DG__A(bs->b.dist.m), DG__A(par), DG__A(bs->b.q[(level + 1) & 1].m),
                    DG__A(bs->b.lv.m), DG__A(ring), DG__A(lvl), DG__A(un), DG__A(zero), DG__A(c->words),
                    DG__A(c->level0), DG__A(c->mode0), DG__A(c->mu0), DG__A(c->alpha), DG__A(c->nbeta),
                    DG__A(c->dist0), DG__A(c->lo), DG__END);
}

/* K direction-optimizing levels from level c->level0 queued, each deciding its direction on
   the device (dg_bfs_td, dg_bfs_td_hubs where a list can be a hub, dg_bfs_bu), then one
   read-back of the level counters into lvh. Level L's frontier bitmap is bm[L % 3]; when
   level0 runs bottom-up, bm[(level0 + 1) % 3] must be clear: `fill` clears it (the level
   before was not queued; else that level did), and the frontier is bm[level0 % 3] unless
   c->dist0. */
static dg_status dg__bfs_queued(dg_graph *g, dg__bfs_run *r, const cl_kernel *k, uint32_t K, const dg__bfs_ctl *c,
                                int fill, cl_uint *lvh) {
    dg__bfs_state *bs = (dg__bfs_state *)g->dev->mod[DG__MOD_BFS].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_mem bm[3];
    uint32_t j, L0 = (uint32_t)c->level0;
    int hubs = g->st[0].large_lists > 0 || g->P > DG_BFS_TD_HUB;   /* a list over DG_BFS_TD_HUB is large */
    bm[0] = bs->b.front.m; bm[1] = bs->b.next.m; bm[2] = bs->b.third.m;
    d->bfs_queues++;
    if (fill) DG__TRY(dg__fill_bytes(g, bm[(L0 + 1) % 3], 0, 0, (size_t)c->words * 4));
    DG__TRY(dg__bfs_td_args(g, r, k[0], k[1], L0, hubs ? DG_BFS_TD_HUB : 0xffffffffu, bm[(L0 + 2) % 3], c));
    DG__TRY(dg__bfs_bu_args(g, r, k[2], L0, bm[L0 % 3], bm[(L0 + 1) % 3], bm[(L0 + 2) % 3], c));
    for (j = 0; j < K; j++) {   /* after the first level only the level's own arguments change */
        uint32_t L = L0 + j;
        cl_int lvl = (cl_int)L;
        if (j) {
            DG__TRY(dg__arg(g, k[0], DG__TD_QIN, sizeof(cl_mem), &bs->b.q[L & 1].m));
            DG__TRY(dg__arg(g, k[0], DG__TD_QOUT, sizeof(cl_mem), &bs->b.q[(L + 1) & 1].m));
            DG__TRY(dg__arg(g, k[0], DG__TD_LEVEL, sizeof lvl, &lvl));
            DG__TRY(dg__arg(g, k[0], DG__TD_ZERO, sizeof(cl_mem), &bm[(L + 2) % 3]));
            DG__TRY(dg__arg(g, k[2], DG__BU_FRONT, sizeof(cl_mem), &bm[L % 3]));
            DG__TRY(dg__arg(g, k[2], DG__BU_NEXT, sizeof(cl_mem), &bm[(L + 1) % 3]));
            DG__TRY(dg__arg(g, k[2], DG__BU_QOUT, sizeof(cl_mem), &bs->b.q[(L + 1) & 1].m));
            DG__TRY(dg__arg(g, k[2], DG__BU_LEVEL, sizeof lvl, &lvl));
            DG__TRY(dg__arg(g, k[2], DG__BU_ZERO, sizeof(cl_mem), &bm[(L + 2) % 3]));
            if (hubs) {
                DG__TRY(dg__arg(g, k[1], DG__HUB_QOUT, sizeof(cl_mem), &bs->b.q[(L + 1) & 1].m));
                DG__TRY(dg__arg(g, k[1], DG__HUB_LEVEL, sizeof lvl, &lvl));
            }
        }
        DG__TRY(dg__launch(g, k[0], d->groups * d->wg, d->wg));
        if (hubs) DG__TRY(dg__launch(g, k[1], d->groups * d->wg, d->wg));
        DG__TRY(dg__launch(g, k[2], d->groups * d->wg, d->wg));
    }
    DG__CL(clEnqueueReadBuffer(d->queue, bs->b.lv.m, CL_TRUE, 0, DG_BFS_RING * DG_LV_WORDS * 4, lvh, 0, NULL, NULL));
    r->rt++;
done:
    return st;
}

/* DG_BFS_TOP_DOWN and DG_BFS_DIRECTION_OPT. While the frontier stays small (a high-diameter
   graph), levels run many to a launch in dg_bfs_deep; without it (or past its limits), several
   levels are queued per read-back of the level counters (up to 64), and direction-optimizing
   levels decide their direction on the device (dg__bfs_queued). */
static dg_status dg__bfs_do(dg_graph *g, dg__bfs_run *r, int bottom_up, double alpha, double beta) {
    dg__bfs_state *bs = (dg__bfs_state *)g->dev->mod[DG__MOD_BFS].state;
    dg__dev *d = g->dev;
    const int variant = r->csr;
    dg_status st = DG_OK;
    size_t n = g->id_bound, words = (n + 31) / 32;
    cl_kernel ktd = NULL, kbu = NULL, kq = NULL, khub = NULL, kdeep = NULL;
    cl_uint ring = DG_BFS_RING;
    cl_uint lvh[DG_LV_ALL_WORDS];
    size_t G = dg__deep_groups(d);
    uint32_t L = 0, K = 1, small = 0, j, KQ = 4;
    uint64_t nf = 1, mf, prev_nf = 0;
    double mu;
    int bu = 0, prev_bu = 0, queued = 0;   /* queued: level L - 1 was */
    const float fa = (float)alpha, fnb = (float)((double)n / beta);
    int dctl = bottom_up && (dg__bfs_dctl > 0 || (dg__bfs_dctl < 0 && !d->cpu));
    const int flat = dg__flat_on(dg__bfs_flat, d);
    const dg__bfs_ctl no = { 0, 0, 0, 0.0f, 0.0f, 0, 0, 0, 0 };
    size_t i;
    for (mf = 0, i = 0; i < r->S->ns; i++) mf += dg__deg(g, &g->st[0], r->S->v[i]);
    nf = r->S->ns;
    mu = (double)g->narcs - (double)mf;
    DG__TRY(dg__buf_fit(g, &bs->b.q[0], n * 4)); DG__TRY(dg__buf_fit(g, &bs->b.q[1], n * 4));
    DG__TRY(dg__buf_fit(g, &bs->b.hubs, n * 4));
    DG__TRY(dg__kernel(g, DG__K_BFS_TD_HUBS, variant, &khub));
    DG__TRY(dg__buf_fit(g, &bs->b.vis, words * 4));
    DG__TRY(dg__fill_bytes(g, bs->b.vis.m, 0, 0, words * 4));
    if (bottom_up) {
        DG__TRY(dg__buf_fit(g, &bs->b.front, words * 4)); DG__TRY(dg__buf_fit(g, &bs->b.next, words * 4));
        if (dctl) DG__TRY(dg__buf_fit(g, &bs->b.third, words * 4));
        DG__TRY(dg__kernel(g, flat ? DG__K_BFS_BU_FLAT : DG__K_BFS_BU, variant, &kbu));
    }
    DG__TRY(dg__kernel(g, flat ? DG__K_BFS_TD_FLAT : DG__K_BFS_TD, variant, &ktd));
    DG__TRY(dg__kernel(g, DG__K_BFS_Q2BM, variant, &kq));
    if (dg__bfs_deep_groups >= 0 && !d->deep_off)
        DG__TRY(dg__kernel(g, DG__K_BFS_DEEP, variant, &kdeep));
    DG__TRY(dg__bfs_start(g, r, bs->b.dist.m, 0, bs->b.vis.m, bs->b.q[0].m, NULL, NULL, (cl_uint)mf));
    r->levels = 1; r->reached = nf;
    for (;;) {
        if (!dctl && bottom_up && !bu && dg__bfs_dir(0, nf, mf, prev_nf, mu, fa, fnb)) {   /* top-down -> bottom-up
                                                           while the frontier grows */
            cl_int lvl = (cl_int)L;
            DG__TRY(dg__fill_bytes(g, bs->b.front.m, 0, 0, words * 4));
            DG__TRY(dg__args(g, kq, DG__A(bs->b.q[L & 1].m), DG__A(bs->b.lv.m), DG__A(ring),
                                   DG__A(lvl), DG__A(bs->b.front.m), DG__END));
            DG__TRY(dg__launch(g, kq, d->groups * d->wg, d->wg));
            bu = 1;
        }
        if (dctl) {   /* level L's direction (as the host branches below decide) */
            prev_bu = bu;
            bu = dg__bfs_dir(bu, nf, mf, prev_nf, mu, fa, fnb);
        }
        if (!dctl && bu) {
            dg__buf t;
            uint32_t nn;
            DG__TRY(dg__fill_bytes(g, bs->b.next.m, 0, 0, words * 4));
            DG__TRY(dg__bfs_bu_args(g, r, kbu, L, bs->b.front.m, bs->b.next.m, NULL, &no));
            DG__TRY(dg__launch(g, kbu, d->groups * d->wg, d->wg));
            DG__CL(clEnqueueReadBuffer(d->queue, bs->b.lv.m, CL_TRUE, 0, DG_BFS_RING * DG_LV_WORDS * 4, lvh, 0, NULL, NULL));
            r->rt++; r->bu_levels++;
            nn = lvh[DG_LV_WORDS * ((L + 1) % DG_BFS_RING) + DG_LV_VERTICES];
            r->edges += lvh[DG_LV_WORDS * (L % DG_BFS_RING) + DG_LV_INSPECTED];
            L++;
            if (nn == 0) break;
            r->levels++; r->reached += nn;
            t = bs->b.front; bs->b.front = bs->b.next; bs->b.next = t;
            prev_nf = nf; nf = nn; mf = lvh[DG_LV_WORDS * (L % DG_BFS_RING) + DG_LV_DEGREES]; mu -= (double)mf;
            bu = dg__bfs_dir(1, nf, mf, prev_nf, mu, fa, fnb);   /* or back to top-down */
            continue;
        }
        if (!bu && kdeep && !d->deep_off && nf <= G * DG_DEEP_VERTICES * d->wg && mf <= G * DG_DEEP_EDGES * d->wg &&
            mf <= DG_BFS_HUB) {
            uint32_t did = 0;
            int fin = 0;
            DG__TRY(dg__bfs_deep(g, r, kdeep, L, bottom_up, alpha, &mu, prev_nf, lvh, &did, &fin));
            L += did;
            if (fin) goto finished;
            if (did) {
                prev_nf = lvh[DG_LV_WORDS * ((L - 1) % DG_BFS_RING) + DG_LV_VERTICES];
                nf = lvh[DG_LV_WORDS * (L % DG_BFS_RING) + DG_LV_VERTICES];
                mf = lvh[DG_LV_WORDS * (L % DG_BFS_RING) + DG_LV_DEGREES];
                small = 0; KQ = 4; queued = 0;
                continue;
            }
        }
        if (dctl && (!dg__bfs_narrow(bu, mf, mu, alpha) || small < 2)) {   /* KQ levels queued, directions
                decided on the device; level L's by the host. (A top-down frontier that stays small,
                far from turning, goes on below: groups sized to it, many levels a read-back.) */
            const cl_kernel k3[3] = { ktd, khub, kbu };
            dg__bfs_ctl c;
            c.lo = 0; c.hi = 0;
            c.level0 = (cl_int)L; c.words = (cl_uint)words; c.alpha = fa; c.nbeta = fnb;
            c.mu0 = mu > 0 ? (cl_ulong)mu : 0;
            c.mode0 = bu ? DG_BFS_MODE_BU : DG_BFS_MODE_TD;
            c.dist0 = !(queued && prev_bu);   /* bottom-up after bottom-up: its bitmap; else dist */
            DG__TRY(dg__bfs_queued(g, r, k3, KQ, &c, bu && !queued, lvh));
            queued = 1;
            for (j = 0; j < KQ; j++) {
                const cl_uint *cur = lvh + DG_LV_WORDS * ((L + j) % DG_BFS_RING);
                const cl_uint *nx = lvh + DG_LV_WORDS * ((L + j + 1) % DG_BFS_RING);
                bu = cur[DG_LV_MODE] == DG_BFS_MODE_BU;
                r->bu_levels += (uint32_t)bu;
                r->edges += cur[DG_LV_INSPECTED];
                if (nx[DG_LV_VERTICES] == 0) { L += j + 1; goto finished; }
                r->levels++; r->reached += nx[DG_LV_VERTICES];
                mu -= (double)nx[DG_LV_DEGREES];
                prev_nf = cur[DG_LV_VERTICES];
            }
            L += KQ;
            nf = lvh[DG_LV_WORDS * (L % DG_BFS_RING) + DG_LV_VERTICES];
            mf = lvh[DG_LV_WORDS * (L % DG_BFS_RING) + DG_LV_DEGREES];
            /* a shrinking frontier: the search is near its end (levels queued past it cost
               their launches); else twice as many */
            KQ = nf < prev_nf ? 2 : KQ * 2 > 64 ? 64 : KQ * 2;
            small = dg__bfs_narrow(bu, mf, mu, alpha) ? small + 1 : 0;
            continue;
        }
        /* top-down: K levels, then one read-back. A single level whose frontier has a list
           longer than DG_BFS_TD_HUB (mf says whether one can) hands it to the hub kernel. Work-groups:
           enough for the frontier (persistent: any frontier is covered, only slower). */
        K = small >= 4 ? (K * 2 > 64 ? 64 : K * 2) : 1;
        for (j = 0; j < K; j++) {
            cl_uint hub = K == 1 && mf > DG_BFS_TD_HUB && !flat ? DG_BFS_TD_HUB : 0xffffffffu;
            size_t grp = (size_t)((K == 1 ? nf : 4 * nf) + d->wg - 1) / d->wg;
            size_t egrp = (size_t)(mf / (8 * (uint64_t)d->wg)) + 1;   /* ~8 rounds of edges each */
            if (K == 1 && egrp > grp) grp = egrp;
            grp = grp < 1 ? 1 : grp > d->groups ? d->groups : grp;
            DG__TRY(dg__bfs_td_args(g, r, ktd, khub, L + j, hub, NULL, &no));
            DG__TRY(dg__launch(g, ktd, grp * d->wg, d->wg));
            if (hub != 0xffffffffu) DG__TRY(dg__launch(g, khub, d->groups * d->wg, d->wg));
        }
        DG__CL(clEnqueueReadBuffer(d->queue, bs->b.lv.m, CL_TRUE, 0, DG_BFS_RING * DG_LV_WORDS * 4, lvh, 0, NULL, NULL));
        r->rt++;
        for (j = 0; j < K; j++) {
            uint32_t nn = lvh[DG_LV_WORDS * ((L + j + 1) % DG_BFS_RING) + DG_LV_VERTICES];
            r->edges += lvh[DG_LV_WORDS * ((L + j) % DG_BFS_RING) + DG_LV_INSPECTED];
            if (nn == 0) { L += j + 1; goto finished; }
            r->levels++; r->reached += nn;
            mu -= (double)lvh[DG_LV_WORDS * ((L + j + 1) % DG_BFS_RING) + DG_LV_DEGREES];
        }
        L += K;
        prev_nf = nf;
        nf = lvh[DG_LV_WORDS * (L % DG_BFS_RING) + DG_LV_VERTICES];
        mf = lvh[DG_LV_WORDS * (L % DG_BFS_RING) + DG_LV_DEGREES];
        queued = 0;
        small = !bottom_up || dg__bfs_narrow(0, mf, mu, alpha) ? small + 1 : 0;
    }
finished:
    r->parents_done = 1;
done:
    return st;
}

/* The levels of a BFS that ends when a level sets no flag (MASK, EDGE_CHUNK): each level L
   launches ks[0..nk) in order, ks[i] over items[i] work-items (none if 0) with L as its argument
   level_arg[i] (-1: none), then reads the level's flag word back (bs->b.flag, 8 bytes, which
   the caller fitted before passing it to its kernels). */
static dg_status dg__bfs_flag_levels(dg_graph *g, dg__bfs_run *r, const cl_kernel *ks,
                                     const int *level_arg, const size_t *items, int nk) {
    dg__bfs_state *bs = (dg__bfs_state *)g->dev->mod[DG__MOD_BFS].state;
    dg_status st = DG_OK;
    cl_uint flag = 0;
    cl_int L;
    int i;
    DG__TRY(dg__fill_bytes(g, bs->b.flag.m, 0, 0, 8));
    for (L = 0;; L++) {
        for (i = 0; i < nk; i++) {
            if (level_arg[i] >= 0)
                DG__TRY(dg__arg(g, ks[i], (cl_uint)level_arg[i], sizeof L, &L));
            if (items[i])
                DG__TRY(dg__launch(g, ks[i], items[i], g->dev->wg));
        }
        DG__TRY(dg__read_u32(g, bs->b.flag.m, (size_t)(L & 1), &flag));
        r->rt++;
        if (!flag)
            break;
    }
    r->levels = (uint32_t)L + 1;
done:
    return st;
}

/* DG_BFS_MASK: one read-back of the "visited something" flag per level. */
static dg_status dg__bfs_mask(dg_graph *g, dg__bfs_run *r) {
    dg__bfs_state *bs = (dg__bfs_state *)g->dev->mod[DG__MOD_BFS].state;
    const int variant = r->csr;
    dg_status st = DG_OK;
    size_t n = g->id_bound;
    cl_kernel ke = NULL, kv = NULL;
    cl_uint un = (cl_uint)n;
    int i;
    for (i = 0; i < 3; i++) {
        DG__TRY(dg__buf_fit(g, &bs->b.mask[i], n));
        DG__TRY(dg__fill_bytes(g, bs->b.mask[i].m, 0, 0, n));
    }
    DG__TRY(dg__buf_fit(g, &bs->b.flag, 8));
    DG__TRY(dg__bfs_start(g, r, bs->b.dist.m, 0, NULL, NULL, bs->b.mask[0].m, bs->b.mask[2].m, 0));
    DG__TRY(dg__kernel(g, DG__K_MASK_EXPAND, variant, &ke));
    DG__TRY(dg__kernel(g, DG__K_MASK_VISIT, variant, &kv));
    DG__TRY(dg__adj_args(g, ke, 0, 0, r->csr));
    DG__ARG(ke, 5, bs->b.mask[0].m); DG__ARG(ke, 6, bs->b.mask[1].m); DG__ARG(ke, 7, bs->b.mask[2].m); DG__ARG(ke, 8, un);
    DG__ARG(kv, 0, bs->b.mask[0].m); DG__ARG(kv, 1, bs->b.mask[1].m); DG__ARG(kv, 2, bs->b.mask[2].m);
    DG__ARG(kv, 3, bs->b.dist.m); DG__ARG(kv, 5, un); DG__ARG(kv, 6, bs->b.flag.m);
    {
        cl_kernel ks[2];
        const int level_arg[2] = { -1, 4 };
        const size_t items[2] = { n, n };
        ks[0] = ke;
        ks[1] = kv;
        st = dg__bfs_flag_levels(g, r, ks, level_arg, items, 2);
    }
done:
    return st;
}


/* DG_BFS_EDGE_CHUNK: the chunk -> vertex array is built once per graph version. */
static dg_status dg__bfs_edge_chunk(dg_graph *g, dg__bfs_run *r, uint32_t mec) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__bfs_state *bs = (dg__bfs_state *)g->dev->mod[DG__MOD_BFS].state;
    const int variant = r->csr;
    dg_status st = DG_OK;
    cl_kernel k = NULL;
    cl_uint umec = mec, nch;
    cl_ulong tot;
    DG__TRY(dg__ec_ensure(g, r->csr, mec));
    nch = (cl_uint)cs->ec_chunks; tot = cs->ec_total;
    DG__TRY(dg__buf_fit(g, &bs->b.flag, 8));
    DG__TRY(dg__bfs_start(g, r, bs->b.dist.m, 0, NULL, NULL, NULL, NULL, 0));
    DG__TRY(dg__kernel(g, DG__K_EC_LEVEL, variant, &k));
    DG__TRY(dg__adj_args(g, k, 0, 0, r->csr));
    DG__ARG(k, 5, cs->b.deg.m); DG__ARG(k, 6, cs->b.sv.m); DG__ARG(k, 7, nch); DG__ARG(k, 8, umec);
    DG__ARG(k, 9, tot); DG__ARG(k, 10, bs->b.dist.m); DG__ARG(k, 12, bs->b.flag.m);
    {
        const int level_arg = 11;
        const size_t items = nch;
        st = dg__bfs_flag_levels(g, r, &k, &level_arg, &items, 1);
    }
done:
    return st;
}

/* DG_BFS_QUEUE: the public primitives, level by level: advance to the unvisited neighbours,
   filter the first copy of each. data = [n, dist..., claimed...] in bs->b.mask[2]. */
static dg_status dg__bfs_queue(dg_graph *g, dg__bfs_run *r) {
    dg__bfs_state *bs = (dg__bfs_state *)g->dev->mod[DG__MOD_BFS].state;
    dg_status st = DG_OK;
    dg_frontier *a = NULL, *b = NULL;
    size_t n = g->id_bound;
    cl_kernel ka = NULL, kf = NULL;
    DG__TRY(dg_frontier_create(g, 1, &a));   /* (first: it syncs, which may drop kernels) */
    DG__TRY(dg_frontier_create(g, 1, &b));
    DG__TRY(dg__kernel(g, DG__K_QUEUE_ADVANCE, 0, &ka));
    DG__TRY(dg__kernel(g, DG__K_QUEUE_FILTER, 0, &kf));
    DG__TRY(dg__buf_fit(g, &bs->b.mask[2], (2 * n + 1) * 4));
    DG__TRY(dg__write_u32(g, bs->b.mask[2].m, 0, (uint32_t)n));
    DG__TRY(dg__fill_bytes(g, bs->b.mask[2].m, 0xff, 4, n * 4));
    DG__TRY(dg__fill_bytes(g, bs->b.mask[2].m, 0, 4 + n * 4, n * 4));
    DG__TRY(dg__bfs_start(g, r, bs->b.mask[2].m, 1, NULL, NULL, NULL, NULL, 0));
    DG__TRY(dg_frontier_set(a, r->S->v, r->S->ns));
    r->levels = 1;
    for (;;) {
        DG__TRY(dg__advance(g, ka, 0, a, b, bs->b.mask[2].m, NULL, NULL));
        DG__TRY(dg__filter(g, kf, b, a, bs->b.mask[2].m, NULL));
        DG__TRY(dg__frontier_n(a));
        r->rt += 3;
        if (a->n == 0) break;
        r->levels++;
    }
    r->dist_in_data = 1;
done:
    dg_frontier_destroy(a); dg_frontier_destroy(b);
    return st;
}

/* Checks the call (source, opt) and fills *o with opt and every default (manual section 13):
   the one place they are decided. */
/* ---- BFS on a graph over several devices (>>shard) ----
   TOP_DOWN and DIRECTION_OPT, one level at a time, every device at once, the host deciding
   each level's direction from the devices' summed counters (Beamer's rule, dg__bfs_dir). Each
   device holds dist, parent and the visited bitmap of every id, meaningful on its own ids.
   A top-down level: each device expands its frontier (its own ids), claiming any target;
   dg_bfs_outbox collects the others' ids it claimed, the host reads each outbox into pinned
   memory (device 0's dg_host_alloc block) and writes it to the other devices, whose
   dg_bfs_inbox claims their own ids among them: two round trips a level. A bottom-up level:
   each device looks at its own unvisited ids against the whole frontier bitmap; the bitmap of
   the next level is gathered from each device's own words and written to the others (when
   that level is bottom-up too; a top-down level starts from each device's queue). */
static dg_status dg__bfs_xpin(dg_graph *g, size_t bytes) {
    dg_status st;
    if (g->xpin_bytes >= bytes) return DG_OK;
    g->dev = g->devs[0];
    dg_host_free(g, g->xpin);
    g->xpin_bytes = 0;
    if (bytes < ((size_t)1 << 20)) bytes = (size_t)1 << 20;
    if (!(g->xpin = (unsigned char *)dg__host_block(g, bytes + bytes / 4, &st))) return st;
    g->xpin_bytes = bytes + bytes / 4;
    return DG_OK;
}
/* Waits for every device's queue (flushed first, so that they run together). */
static dg_status dg__devs_finish(dg_graph *g) {
    int i;
    dg_status st = DG_OK;
    for (i = 0; i < g->ndev; i++) clFlush(g->devs[i]->queue);
    for (i = 0; i < g->ndev; i++) {
        cl_int e = clFinish(g->devs[i]->queue);
        if (e != CL_SUCCESS && st == DG_OK) st = dg__clfail(g, e, "clFinish");
    }
    return st;
}
/* The bitmap buffers bm[i] of every device made whole: each device's own words (w0[i] ..
   w1[i]) read into pinned memory at base (unless `read` says they are there already), then
   written to the others (not waited for: base stays theirs until the next level's wait). */
static dg_status dg__bfs_allgather(dg_graph *g, cl_mem *bm, const size_t *w0, const size_t *w1, unsigned char *base,
                                   int read) {
    dg_status st = DG_OK;
    int i, e;
    for (i = 0; i < g->ndev && !read; i++)
        if (w1[i] > w0[i])
            DG__CL(clEnqueueReadBuffer(g->devs[i]->queue, bm[i], CL_FALSE, w0[i] * 4, (w1[i] - w0[i]) * 4,
                                       base + w0[i] * 4, 0, NULL, NULL));
    if (!read) DG__TRY(dg__devs_finish(g));
    for (e = 0; e < g->ndev; e++)
        for (i = 0; i < g->ndev; i++)
            if (i != e && w1[i] > w0[i])
                DG__CL(clEnqueueWriteBuffer(g->devs[e]->queue, bm[e], CL_FALSE, w0[i] * 4, (w1[i] - w0[i]) * 4,
                                            base + w0[i] * 4, 0, NULL, NULL));
    for (e = 0; e < g->ndev; e++) clFlush(g->devs[e]->queue);
done:
    return st;
}

/* Marks the gathered bitmaps bm[i] visited on every device (dg_bfs_or_words). */
static dg_status dg__bfs_mark_visited(dg_graph *g, const cl_kernel *kor, dg__bfs_state *const *bs, const cl_mem *bm,
                                      cl_uint words) {
    dg_status st = DG_OK;
    int i;
    for (i = 0; i < g->ndev && st == DG_OK; i++) {
        g->dev = g->devs[i];
        if ((st = dg__args(g, kor[i], DG__A(bs[i]->b.vis.m), DG__A(bm[i]), DG__A(words), DG__END)) == DG_OK)
            st = dg__launch(g, kor[i], g->dev->groups * g->dev->wg, g->dev->wg);
        clFlush(g->dev->queue);
    }
    return st;
}

/* Pairs of an outbox read with its count (one round trip for a small level), and whether a
   level's found ids travel as bitmaps when no parents are wanted (-1: when the pairs would be
   more bytes than the others' words; 0: never; 1: always). Both test hooks. */
static size_t dg__bfs_xprefix = 16384;
static int dg__bfs_xbits = -1;
static dg_status dg__bfs_multi(dg_graph *g, dg__bfs_run *r, int bottom_up, double alpha, double beta) {
    const int N = g->ndev, bits_ok = !r->want_parent;
    const size_t n = g->id_bound, words = (n + 31) / 32, ringw = (size_t)DG_BFS_RING * DG_LV_WORDS;
    const size_t pre = dg__bfs_xprefix < n + 1 ? dg__bfs_xprefix : n + 1;   /* (pairs; xout holds n + 1) */
    const size_t xo = (2 * words * 4 + 63) / 64 * 64, xp = xo + (size_t)N * pre * 8;   /* (pinned layout:
                           two bitmaps; the outboxes' prefixes; the outboxes or the others' words) */
    const float fa = (float)alpha, fnb = (float)((double)n / beta);
    cl_kernel ktd[DG_MAX_DEVICES], khub[DG_MAX_DEVICES], kbu[DG_MAX_DEVICES], kq[DG_MAX_DEVICES];
    cl_kernel kout[DG_MAX_DEVICES], kin[DG_MAX_DEVICES], kinb[DG_MAX_DEVICES], kor[DG_MAX_DEVICES];
    cl_mem bm[DG_MAX_DEVICES];
    size_t w0[DG_MAX_DEVICES], w1[DG_MAX_DEVICES], cnt[DG_MAX_DEVICES], fwords = 0;
    unsigned char *src[DG_MAX_DEVICES];
    cl_uint ring = DG_BFS_RING, *lvh = NULL, uwords = (cl_uint)words;
    dg__bfs_state *bs[DG_MAX_DEVICES];
    dg__bfs_ctl c;
    dg_status st = DG_OK;
    uint64_t nf, mf = 0, prev_nf = 0;
    uint32_t L = 0;
    double mu;
    int i, e, bu = 0, td_set = 0, bu_set = 0;   /* (the kernels' arguments set whole once, then those that change) */
    const int hubs = g->st[0].large_lists > 0 || g->P > DG_BFS_TD_HUB;
    memset(&c, 0, sizeof c);
    for (i = 0; i < (int)r->S->ns; i++) mf += dg__deg(g, &g->st[0], r->S->v[i]);
    nf = r->S->ns;
    mu = (double)g->narcs - (double)mf;
    g->dev = g->devs[0];   /* (the counters read into pinned memory, kept: a read into pageable memory is staged) */
    if (!g->xlv && !(g->xlv = (uint32_t *)dg__host_block(g, (size_t)N * ringw * 4, &st))) return st;
    lvh = g->xlv;
    for (i = 0; i < N; i++) {   /* each device's buffers, kernels and start */
        dg__dev *d = g->dev = g->devs[i];
        const int flat = dg__flat_on(dg__bfs_flat, d);
        bs[i] = (dg__bfs_state *)d->mod[DG__MOD_BFS].state;
        w0[i] = (size_t)d->lo / 32 < words ? (size_t)d->lo / 32 : words;   /* (lo: a multiple of 64; hi: too, or */
        w1[i] = ((size_t)d->hi + 31) / 32 < words ? ((size_t)d->hi + 31) / 32 : words;   /* the id bound) */
        if (w1[i] < w0[i]) w1[i] = w0[i];
        fwords += words - (w1[i] - w0[i]);
        DG__TRY(dg__buf_fit(g, &bs[i]->b.q[0], n * 4 + 4)); DG__TRY(dg__buf_fit(g, &bs[i]->b.q[1], n * 4 + 4));
        DG__TRY(dg__buf_fit(g, &bs[i]->b.hubs, n * 4 + 4));
        DG__TRY(dg__buf_fit(g, &bs[i]->b.xout, n * 8 + 8));
        DG__TRY(dg__buf_fit(g, &bs[i]->b.xin, 64));
        if (bits_ok) {   /* (cleared again after each level that uses it) */
            DG__TRY(dg__buf_fit(g, &bs[i]->b.xbm, words * 4 + 4));
            DG__TRY(dg__fill_bytes(g, bs[i]->b.xbm.m, 0, 0, words * 4));
        }
        DG__TRY(dg__buf_fit(g, &bs[i]->b.vis, words * 4 + 4));
        DG__TRY(dg__fill_bytes(g, bs[i]->b.vis.m, 0, 0, words * 4));
        if (bottom_up) {
            DG__TRY(dg__buf_fit(g, &bs[i]->b.front, words * 4 + 4)); DG__TRY(dg__buf_fit(g, &bs[i]->b.next, words * 4 + 4));
            DG__TRY(dg__kernel(g, flat ? DG__K_BFS_BU_FLAT : DG__K_BFS_BU, 0, &kbu[i]));
        }
        DG__TRY(dg__kernel(g, flat ? DG__K_BFS_TD_FLAT : DG__K_BFS_TD, 0, &ktd[i]));
        DG__TRY(dg__kernel(g, DG__K_BFS_TD_HUBS, 0, &khub[i]));
        DG__TRY(dg__kernel(g, DG__K_BFS_Q2BM, 0, &kq[i]));
        DG__TRY(dg__kernel(g, DG__K_BFS_OUTBOX, 0, &kout[i]));
        DG__TRY(dg__kernel(g, DG__K_BFS_INBOX, 0, &kin[i]));
        DG__TRY(dg__kernel(g, DG__K_BFS_INBOX_BITS, 0, &kinb[i]));
        DG__TRY(dg__kernel(g, DG__K_BFS_OR_WORDS, 0, &kor[i]));
        DG__TRY(dg__bfs_start(g, r, bs[i]->b.dist.m, 0, bs[i]->b.vis.m, bs[i]->b.q[0].m, NULL, NULL, (cl_uint)mf));
    }
    DG__TRY(dg__bfs_xpin(g, xp));
    r->levels = 1; r->reached = nf;
#ifdef DYNGRAPH_TRACE_BFS
    {
        double t0 = dg__now_ms();
#define DG__BFS_TRACE(dir, nn, out) fprintf(stderr, "  [bfs over %d devices] level %u %s: %llu found, %llu sent, %.3f ms\n", \
                                            N, (unsigned)L, dir, (unsigned long long)(nn), (unsigned long long)(out), dg__now_ms() - t0)
#else
#define DG__BFS_TRACE(dir, nn, out) ((void)0)
#endif
    for (;;) {
        cl_int lvl = (cl_int)L, nxt = (cl_int)L + 1;
        uint64_t nn = 0, mm = 0, out = 0;
        int fit = 1;
        if (bottom_up && !bu && dg__bfs_dir(0, nf, mf, prev_nf, mu, fa, fnb)) {   /* top-down -> bottom-up: the
                                                 frontier's bitmap from the queues, each device's own words */
            for (i = 0; i < N; i++) {
                g->dev = g->devs[i];
                DG__TRY(dg__fill_bytes(g, bs[i]->b.front.m, 0, 0, words * 4));
                DG__TRY(dg__args(g, kq[i], DG__A(bs[i]->b.q[L & 1].m), DG__A(bs[i]->b.lv.m), DG__A(ring),
                                 DG__A(lvl), DG__A(bs[i]->b.front.m), DG__END));
                DG__TRY(dg__launch(g, kq[i], g->dev->groups * g->dev->wg, g->dev->wg));
                bm[i] = bs[i]->b.front.m;
            }
            DG__TRY(dg__bfs_allgather(g, bm, w0, w1, g->xpin + (L & 1) * words * 4, 0));
            DG__TRY(dg__bfs_mark_visited(g, kor, bs, bm, uwords));
            bu = 1;
        }
        if (bu) {   /* bottom-up: each device's own ids; its words of the next frontier read with the counters */
            unsigned char *half = g->xpin + ((L + 1) & 1) * words * 4;
            for (i = 0; i < N; i++) {
                dg__dev *d = g->dev = g->devs[i];
                c.lo = (cl_uint)d->lo; c.hi = (cl_uint)d->hi;
                DG__TRY(dg__fill_bytes(g, bs[i]->b.next.m, 0, 0, words * 4));
                if (!bu_set) DG__TRY(dg__bfs_bu_args(g, r, kbu[i], L, bs[i]->b.front.m, bs[i]->b.next.m, NULL, &c));
                else {
                    DG__TRY(dg__arg(g, kbu[i], DG__BU_FRONT, sizeof(cl_mem), &bs[i]->b.front.m));
                    DG__TRY(dg__arg(g, kbu[i], DG__BU_NEXT, sizeof(cl_mem), &bs[i]->b.next.m));
                    DG__TRY(dg__arg(g, kbu[i], DG__BU_QOUT, sizeof(cl_mem), &bs[i]->b.q[(L + 1) & 1].m));
                    DG__TRY(dg__arg(g, kbu[i], DG__BU_LEVEL, sizeof lvl, &lvl));
                }
                DG__TRY(dg__launch(g, kbu[i], d->groups * d->wg, d->wg));
                DG__CL(clEnqueueReadBuffer(d->queue, bs[i]->b.lv.m, CL_FALSE, 0, ringw * 4, lvh + i * ringw, 0, NULL, NULL));
                if (w1[i] > w0[i])
                    DG__CL(clEnqueueReadBuffer(d->queue, bs[i]->b.next.m, CL_FALSE, w0[i] * 4, (w1[i] - w0[i]) * 4,
                                               half + w0[i] * 4, 0, NULL, NULL));
                clFlush(d->queue);
            }
            DG__TRY(dg__devs_finish(g));
            bu_set = 1;
            r->rt++; r->bu_levels++;
            for (i = 0; i < N; i++) {
                const cl_uint *lv = lvh + i * ringw;
                nn += lv[DG_LV_WORDS * ((L + 1) % DG_BFS_RING) + DG_LV_VERTICES];
                mm += lv[DG_LV_WORDS * ((L + 1) % DG_BFS_RING) + DG_LV_DEGREES];
                r->edges += lv[DG_LV_WORDS * (L % DG_BFS_RING) + DG_LV_INSPECTED];
            }
            DG__BFS_TRACE("bottom-up", nn, 0);
            L++;
            if (nn == 0) break;
            r->levels++; r->reached += nn;
            prev_nf = nf; nf = nn; mf = mm; mu -= (double)mf;
            bu = dg__bfs_dir(1, nf, mf, prev_nf, mu, fa, fnb);   /* or back to top-down (from the queues) */
            for (i = 0; i < N; i++) {   /* the found ids: each device's words to all, marked visited (and,
                                           bottom-up again, the frontier) */
                if (bu) {
                    dg__buf t = bs[i]->b.front;
                    bs[i]->b.front = bs[i]->b.next; bs[i]->b.next = t;
                }
                bm[i] = bu ? bs[i]->b.front.m : bs[i]->b.next.m;
            }
            DG__TRY(dg__bfs_allgather(g, bm, w0, w1, half, 1));
            DG__TRY(dg__bfs_mark_visited(g, kor, bs, bm, uwords));
            continue;
        }
        /* top-down: expand, collect the others' ids (their count, the counters and a prefix of
           the outbox read at once), hand them over */
        for (i = 0; i < N; i++) {
            dg__dev *d = g->dev = g->devs[i];
            cl_int lo = d->lo, hi = d->hi;
            cl_mem par = r->want_parent ? bs[i]->b.parent.m : NULL, xb = bits_ok ? bs[i]->b.xbm.m : NULL;
            cl_uint hub = mf > DG_BFS_TD_HUB && hubs && !dg__flat_on(dg__bfs_flat, d) ? DG_BFS_TD_HUB : 0xffffffffu;
            if (!td_set) {
                DG__TRY(dg__bfs_td_args(g, r, ktd[i], khub[i], L, hub, NULL, &c));
                DG__TRY(dg__args(g, kout[i], DG__A(bs[i]->b.q[(L + 1) & 1].m), DG__A(bs[i]->b.lv.m), DG__A(ring), DG__A(nxt),
                                 DG__A(lo), DG__A(hi), DG__A(par), DG__A(bs[i]->b.xout.m), DG__A(xb), DG__END));
            } else {
                DG__TRY(dg__arg(g, ktd[i], DG__TD_QIN, sizeof(cl_mem), &bs[i]->b.q[L & 1].m));
                DG__TRY(dg__arg(g, ktd[i], DG__TD_QOUT, sizeof(cl_mem), &bs[i]->b.q[(L + 1) & 1].m));
                DG__TRY(dg__arg(g, ktd[i], DG__TD_LEVEL, sizeof lvl, &lvl));
                DG__TRY(dg__arg(g, ktd[i], DG__TD_HUB, sizeof hub, &hub));
                DG__TRY(dg__arg(g, khub[i], DG__HUB_QOUT, sizeof(cl_mem), &bs[i]->b.q[(L + 1) & 1].m));
                DG__TRY(dg__arg(g, khub[i], DG__HUB_LEVEL, sizeof lvl, &lvl));
                DG__TRY(dg__arg(g, kout[i], 0, sizeof(cl_mem), &bs[i]->b.q[(L + 1) & 1].m));
                DG__TRY(dg__arg(g, kout[i], 3, sizeof nxt, &nxt));
            }
            DG__TRY(dg__launch(g, ktd[i], d->groups * d->wg, d->wg));
            if (hub != 0xffffffffu) DG__TRY(dg__launch(g, khub[i], d->groups * d->wg, d->wg));
            DG__TRY(dg__launch(g, kout[i], d->groups * d->wg, d->wg));
            DG__CL(clEnqueueReadBuffer(d->queue, bs[i]->b.lv.m, CL_FALSE, 0, ringw * 4, lvh + i * ringw, 0, NULL, NULL));
            if (pre) DG__CL(clEnqueueReadBuffer(d->queue, bs[i]->b.xout.m, CL_FALSE, 0, pre * 8, g->xpin + xo + (size_t)i * pre * 8,
                                                0, NULL, NULL));
            clFlush(d->queue);
        }
        DG__TRY(dg__devs_finish(g));
        td_set = 1;
        r->rt++;
        for (i = 0; i < N; i++) {
            cnt[i] = lvh[i * ringw + DG_LV_WORDS * ((L + 1) % DG_BFS_RING) + DG_LV_SENT]; out += cnt[i];
            fit &= cnt[i] <= pre;
            src[i] = g->xpin + xo + (size_t)i * pre * 8;
        }
        if (out && bits_ok && (dg__bfs_xbits > 0 || (dg__bfs_xbits < 0 && out * 8 > fwords * 4))) {   /* many: the others' words of each device's bitmap */
            DG__TRY(dg__bfs_xpin(g, xp + (size_t)N * words * 4));
            for (i = 0; i < N; i++) {
                unsigned char *b = g->xpin + xp + (size_t)i * words * 4;
                if (w0[i]) DG__CL(clEnqueueReadBuffer(g->devs[i]->queue, bs[i]->b.xbm.m, CL_FALSE, 0, w0[i] * 4, b, 0, NULL, NULL));
                if (w1[i] < words)
                    DG__CL(clEnqueueReadBuffer(g->devs[i]->queue, bs[i]->b.xbm.m, CL_FALSE, w1[i] * 4, (words - w1[i]) * 4,
                                               b + w1[i] * 4, 0, NULL, NULL));
            }
            DG__TRY(dg__devs_finish(g));
            for (e = 0; e < N; e++) {
                dg__dev *d = g->dev = g->devs[e];
                const size_t rw = w1[e] - w0[e];
                cl_uint ns = 0, a0 = (cl_uint)w0[e], a1 = (cl_uint)w1[e];
                if (!rw) continue;
                DG__TRY(dg__buf_fit(g, &bs[e]->b.xin, (size_t)(N - 1) * rw * 4));
                for (i = 0; i < N; i++)
                    if (i != e)
                        DG__CL(clEnqueueWriteBuffer(d->queue, bs[e]->b.xin.m, CL_FALSE, (size_t)ns++ * rw * 4, rw * 4,
                                                    g->xpin + xp + (size_t)i * words * 4 + w0[e] * 4, 0, NULL, NULL));
                DG__TRY(dg__args(g, kinb[e], dg__adj(0, 0), DG__A(bs[e]->b.xin.m), DG__A(ns), DG__A(a0), DG__A(a1),
                                 DG__A(bs[e]->b.lv.m), DG__A(ring), DG__A(nxt), DG__A(bs[e]->b.dist.m),
                                 DG__A(bs[e]->b.vis.m), DG__A(bs[e]->b.q[(L + 1) & 1].m), DG__END));
                DG__TRY(dg__launch(g, kinb[e], d->groups * d->wg, d->wg));
            }
            r->rt++;
        } else if (out) {   /* the outboxes (read now unless their prefixes held them), then each device's inbox */
            if (!fit) {
                size_t at = 0;
                DG__TRY(dg__bfs_xpin(g, xp + out * 8));
                for (i = 0; i < N; i++) {
                    src[i] = g->xpin + xp + at * 8;
                    if (cnt[i]) DG__CL(clEnqueueReadBuffer(g->devs[i]->queue, bs[i]->b.xout.m, CL_FALSE, 0, cnt[i] * 8,
                                                           src[i], 0, NULL, NULL));
                    at += cnt[i];
                }
                DG__TRY(dg__devs_finish(g));
                r->rt++;
            }
            for (e = 0; e < N; e++) {
                dg__dev *d = g->dev = g->devs[e];
                cl_int lo = d->lo, hi = d->hi;
                cl_mem par = r->want_parent ? bs[e]->b.parent.m : NULL;
                cl_uint k = (cl_uint)(out - cnt[e]);
                size_t put = 0;
                if (!k) continue;
                DG__TRY(dg__buf_fit(g, &bs[e]->b.xin, (size_t)k * 8));
                for (i = 0; i < N; i++)
                    if (i != e && cnt[i]) {
                        DG__CL(clEnqueueWriteBuffer(d->queue, bs[e]->b.xin.m, CL_FALSE, put * 8, cnt[i] * 8, src[i],
                                                    0, NULL, NULL));
                        put += cnt[i];
                    }
                DG__TRY(dg__args(g, kin[e], dg__adj(0, 0), DG__A(bs[e]->b.xin.m), DG__A(k), DG__A(lo), DG__A(hi),
                                 DG__A(bs[e]->b.lv.m), DG__A(ring), DG__A(nxt), DG__A(bs[e]->b.dist.m), DG__A(par),
                                 DG__A(bs[e]->b.vis.m), DG__A(bs[e]->b.q[(L + 1) & 1].m), DG__END));
                DG__TRY(dg__launch(g, kin[e], d->groups * d->wg, d->wg));
            }
        }
        for (i = 0; i < N && out && bits_ok; i++) {   /* (the bitmaps cleared for the next level) */
            g->dev = g->devs[i];
            DG__TRY(dg__fill_bytes(g, bs[i]->b.xbm.m, 0, 0, words * 4));
        }
        if (out) {   /* the counters again, with what the inboxes added */
            for (i = 0; i < N; i++)
                DG__CL(clEnqueueReadBuffer(g->devs[i]->queue, bs[i]->b.lv.m, CL_FALSE, 0, ringw * 4, lvh + i * ringw, 0,
                                           NULL, NULL));
            DG__TRY(dg__devs_finish(g));
            r->rt++;
        }
        for (i = 0; i < N; i++) {
            const cl_uint *lv = lvh + i * ringw;
            nn += lv[DG_LV_WORDS * ((L + 1) % DG_BFS_RING) + DG_LV_VERTICES] - cnt[i];
            mm += lv[DG_LV_WORDS * ((L + 1) % DG_BFS_RING) + DG_LV_DEGREES];
            r->edges += lv[DG_LV_WORDS * (L % DG_BFS_RING) + DG_LV_INSPECTED];
        }
        DG__BFS_TRACE(fit ? "top-down" : "top-down (outboxes read after their counts)", nn, out);
        L++;
        if (nn == 0) break;
        r->levels++; r->reached += nn;
        mu -= (double)mm;
        prev_nf = nf; nf = nn; mf = mm;
    }
#ifdef DYNGRAPH_TRACE_BFS
    }
#endif
#undef DG__BFS_TRACE
    r->parents_done = 1;
done:
    if (st != DG_OK) for (i = 0; i < N; i++) clFinish(g->devs[i]->queue);   /* (nothing left writing into lvh) */
    g->dev = g->devs[0];
    return st;
}

/* dg_bfs on a graph over several devices: the search, then each device's part of the answers. */
static dg_status dg__bfs_sharded(dg_graph *g, const dg_bfs_options *o, const dg__seeds *S, int32_t *dist) {
    dg_status st = DG_OK;
    dg__bfs_run r;
    double t0 = dg__now_ms(), sync_ms, t1;
    int32_t *hd = dist, *hp = o->parent;
    size_t n, i;
    int want_path = S->targets && (o->path || o->path_length);
    if ((o->strategy != DG_BFS_TOP_DOWN && o->strategy != DG_BFS_DIRECTION_OPT) || o->csr_copy)
        return dg__fail(g, DG_ERR_UNSUPPORTED, "dg_bfs: a graph over several devices searches with TOP_DOWN or "
                        "DIRECTION_OPT, without csr_copy (manual section 11)");
    if ((st = dg__sync_all(g)) != DG_OK) return st;
    if (o->dist_buffer) DG__TRY(dg__out_buffer_check(g, o->dist_buffer, g->id_bound * 4, "dg_bfs"));
    sync_ms = dg__now_ms() - t0;
    memset(&r, 0, sizeof r);
    r.S = S;
    r.want_parent = o->parent != NULL || want_path;
    n = g->id_bound;
    for (i = 0; i < (size_t)g->ndev; i++) {
        dg__bfs_state *bs;
        g->dev = g->devs[i];
        if (!(bs = DG__STATE(g, DG__MOD_BFS, dg__bfs_state))) { st = DG_ERR_OUT_OF_MEMORY; goto done; }
        DG__TRY(dg__fit_fill(g, &bs->b.dist, -1, n));
        if (r.want_parent) DG__TRY(dg__fit_fill(g, &bs->b.parent, -1, n));
    }
    t0 = dg__now_ms();
    DG__TRY(dg__bfs_multi(g, &r, o->strategy == DG_BFS_DIRECTION_OPT, o->alpha, o->beta));
    t1 = dg__now_ms();
    if (!hd && (o->dist_buffer || want_path) && !(hd = (int32_t *)dg__alloc(g, n * 4 + 4))) { st = dg__oom(g, "dg_bfs"); goto done; }
    if (!hp && want_path && !(hp = (int32_t *)dg__alloc(g, n * 4 + 4))) { st = dg__oom(g, "dg_bfs"); goto done; }
    for (i = 0; i < (size_t)g->ndev; i++) {   /* each device's ids */
        dg__dev *d = g->dev = g->devs[i];
        dg__bfs_state *bs = (dg__bfs_state *)d->mod[DG__MOD_BFS].state;
        size_t lo = (size_t)d->lo, hi = (size_t)d->hi;
        if (hi <= lo) continue;
        if (hd) DG__TRY(dg__read_out(g, bs->b.dist.m, lo * 4, (hi - lo) * 4, hd + lo));
        if (hp) DG__TRY(dg__read_out(g, bs->b.parent.m, lo * 4, (hi - lo) * 4, hp + lo));
    }
    g->dev = g->devs[0];
    if (o->dist_buffer && n)
        DG__CL(clEnqueueWriteBuffer(g->dev->queue, o->dist_buffer, CL_TRUE, 0, n * 4, hd, 0, NULL, NULL));
    if (want_path) {   /* the tree walked from targets[0] on the host */
        dg_vertex t = o->targets[0], v = t;
        size_t len = hd[t] >= 0 ? (size_t)hd[t] + 1 : 0, k;
        for (k = len; k-- > 0; v = hp[v]) {
            if (v < 0 || (size_t)v >= n) { st = dg__fail(g, DG_ERR_CORRUPT, "dg_bfs: the tree of parents is broken"); goto done; }
            if (o->path && k < o->path_capacity) o->path[k] = v;
        }
        if (o->path_length) *o->path_length = len;
    }
    if (o->stats) {
        memset(o->stats, 0, sizeof *o->stats);
        o->stats->device_ms = t1 - t0;   /* (the search's wall time: devices run together) */
        o->stats->kernel_ms = -1;
        o->stats->read_ms = dg__now_ms() - t1;
        o->stats->strategy = o->strategy;
        o->stats->levels = r.levels;
        o->stats->bottom_up_levels = r.bu_levels;
        o->stats->host_round_trips = r.rt;
        o->stats->vertices_reached = r.reached;
        o->stats->edges_inspected = r.edges;
        o->stats->sync_ms = sync_ms;
    }
done:
    if (g->devs) g->dev = g->devs[0];
    if (hd != dist) dg__free(g, hd);
    if (hp != o->parent) dg__free(g, hp);
    return st;
}

static dg_status dg__bfs_options_resolve(dg_graph *g, const dg_bfs_options *opt, dg_bfs_options *o) {
    dg_status st = dg__search_args(g, "dg_bfs", opt, o, sizeof *o);
    if (st != DG_OK)
        return st;
    if ((int)o->strategy < (int)DG_BFS_AUTO || (int)o->strategy > (int)DG_BFS_DIRECTION_OPT)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_bfs: unknown strategy %d", (int)o->strategy);
    if (o->alpha < 0 || o->beta < 0 || o->alpha != o->alpha || o->beta != o->beta)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_bfs: alpha and beta must be positive (or 0: default)");
    if (o->strategy == DG_BFS_AUTO)
        o->strategy = DG_BFS_DIRECTION_OPT;
    if (o->csr_copy && o->strategy == DG_BFS_QUEUE)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_bfs: csr_copy does not apply to DG_BFS_QUEUE");
    if ((o->path || o->path_length) && o->target_count == 0)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_bfs: a path needs a target");
    if (o->max_edge_count == 0)
        o->max_edge_count = DG_BFS_DEFAULT_EDGE_CHUNK;
    if (o->alpha == 0)
        o->alpha = DG_BFS_DEFAULT_ALPHA;
    if (o->beta == 0)
        o->beta = DG_BFS_DEFAULT_BETA;
    return DG_OK;
}

DG_API dg_status dg_bfs(dg_graph *g, dg_vertex source, int32_t *dist, const dg_bfs_options *opt) {
    dg__bfs_state *bs;
    dg_bfs_options o;
    dg__bfs_run r;
    dg__seeds S;
    dg__dev *d = NULL;
    dg_status st = DG_OK;
    size_t n, i;
    double t0, sync_ms;
    cl_mem dsrc;
    size_t doff;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__bfs_options_resolve(g, opt, &o)) != DG_OK) return st;
    if ((st = dg__seeds_make(g, "dg_bfs", source, o.sources, o.source_count, o.targets, o.target_count, &S)) != DG_OK)
        return st;
    for (i = 0; i < S.ns; i++)   /* their degrees are read here */
        DG__TRY(dg__fresh_list(g, 0, S.v[i], 0));
    if (g->ndev > 1 || (!g->dev && dg__devices_n(g) > 1)) {
        st = dg__bfs_sharded(g, &o, &S, dist);
        goto done;
    }
    t0 = dg__now_ms();
    DG__TRY(dg__sync(g));
    d = g->dev;
    if (!(bs = DG__STATE(g, DG__MOD_BFS, dg__bfs_state))) { st = DG_ERR_OUT_OF_MEMORY; goto done; }
    if (o.dist_buffer) DG__TRY(dg__out_buffer_check(g, o.dist_buffer, g->id_bound * 4, "dg_bfs"));
    if (o.csr_copy) DG__TRY(dg__csr_copy(g));
    sync_ms = dg__now_ms() - t0;
    memset(&r, 0, sizeof r);
    r.S = &S; r.csr = o.csr_copy != 0;
    r.want_parent = o.parent != NULL || o.path || o.path_length;
    r.early = S.targets && (o.strategy == DG_BFS_TOP_DOWN || o.strategy == DG_BFS_DIRECTION_OPT);
    n = g->id_bound;
    dg__timing_reset(d);
    d->ksum = o.stats != NULL;                 /* kernel_ms: every kernel's event kept */
    DG__TRY(dg__fit_fill(g, &bs->b.dist, -1, n));
    if (r.want_parent) DG__TRY(dg__fit_fill(g, &bs->b.parent, -1, n));
    switch (o.strategy) {
    case DG_BFS_MASK: DG__TRY(dg__bfs_mask(g, &r)); break;
    case DG_BFS_QUEUE: DG__TRY(dg__bfs_queue(g, &r)); break;
    case DG_BFS_EDGE_CHUNK: DG__TRY(dg__bfs_edge_chunk(g, &r, o.max_edge_count)); break;
    case DG_BFS_TOP_DOWN: DG__TRY(dg__bfs_do(g, &r, 0, o.alpha, o.beta)); break;
    default: DG__TRY(dg__bfs_do(g, &r, 1, o.alpha, o.beta)); break;
    }
    dsrc = r.dist_in_data ? bs->b.mask[2].m : bs->b.dist.m;
    doff = r.dist_in_data ? 4 : 0;
    if (r.want_parent && !r.parents_done) {
        cl_kernel k = NULL;
        cl_uint un = (cl_uint)n, uoff = (cl_uint)(doff / 4);
        DG__TRY(dg__kernel(g, DG__K_PARENTS, r.csr, &k));
        DG__TRY(dg__args(g, k, dg__adj(1, r.csr), DG__A(dsrc), DG__A(uoff), DG__A(bs->b.parent.m),
                               DG__A(un), DG__END));
        DG__TRY(dg__launch(g, k, n, d->wg));
    }
    if (r.early && S.nt) {
        cl_uint ns = (cl_uint)S.ns, nt = (cl_uint)S.nt;
        DG__TRY(dg__run(g, DG__K_BFS_UNMARK, nt, DG__A(bs->b.dist.m), DG__A(bs->b.seeds.m), DG__A(ns),
                        DG__A(nt), DG__END));
    }
    DG__CL(clFinish(d->queue));
    if (o.stats) {
        memset(o.stats, 0, sizeof *o.stats);
        o.stats->device_ms = dg__timing_ms(d);
        o.stats->kernel_ms = dg__kernel_ms(d);
    }
    if (S.targets && (o.path || o.path_length)) {
        size_t len = 0;
        DG__TRY(dg__path(g, bs->b.parent.m, o.targets[0], o.path, o.path_capacity, &len));
        if (o.path_length) *o.path_length = len;
    }
    if (o.stats && !r.reached) {   /* strategies without level counters: count on the device */
        cl_kernel k = NULL;
        cl_uint un = (cl_uint)n, uoff = (cl_uint)(doff / 4), cnt[2];
        DG__TRY(dg__buf_fit(g, &bs->b.lv, DG_BFS_RING * DG_LV_WORDS * 4));
        DG__TRY(dg__fill_bytes(g, bs->b.lv.m, 0, 0, 8));
        DG__TRY(dg__kernel(g, DG__K_BFS_COUNT, r.csr, &k));
        DG__TRY(dg__args(g, k, dg__adj(0, r.csr), DG__A(dsrc), DG__A(uoff), DG__A(un),
                               DG__A(bs->b.lv.m), DG__END));
        DG__TRY(dg__launch(g, k, d->groups * d->wg, d->wg));
        DG__CL(clEnqueueReadBuffer(d->queue, bs->b.lv.m, CL_TRUE, 0, 8, cnt, 0, NULL, NULL));
        r.reached = cnt[0]; r.edges = cnt[1];
    }
    t0 = dg__now_ms();
    if (dist && n) DG__TRY(dg__read_out(g, dsrc, doff, n * 4, dist));
    if (o.parent && n) DG__TRY(dg__read_out(g, bs->b.parent.m, 0, n * 4, o.parent));
    if (o.dist_buffer && n)   /* (after the reads: read_ms is theirs alone) */
        DG__CL(clEnqueueCopyBuffer(d->queue, dsrc, o.dist_buffer, doff, 0, n * 4, 0, NULL, NULL));
    if (o.stats) {
        if ((dist || o.parent) && n) o.stats->read_ms = dg__now_ms() - t0;
        o.stats->strategy = o.strategy;
        o.stats->levels = r.levels;
        o.stats->bottom_up_levels = r.bu_levels;
        o.stats->host_round_trips = r.rt;
        o.stats->vertices_reached = r.reached;
        o.stats->edges_inspected = r.edges;
        o.stats->sync_ms = sync_ms;
    }
done:
    if (d) { dg__timing_reset(d); d->ksum = 0; }
    dg__seeds_free(g, &S);
    return st;
}

/* =========================================================================
   Single-source shortest paths   >>sssp
   =========================================================================
   dg_sssp syncs, checks the weights (once per graph version, on the device), then runs one
   strategy on float distances kept as bit patterns in ss->b.dist; the shortest-path tree, when
   wanted, is built afterwards from the final distances (dg_sssp_pred in kernels/50_sssp.cl). */
/* The SSSP module's device state. */
typedef struct dg__sssp_state {
    struct {
        dg__buf dist, parent, q[2], flag, data;
        dg__buf sp_stamp, sp_ff, sp_far[2], sp_lx[2], sp_ex, sp_pieces, sp_ctl, sp_part, sp_deep;
        dg__buf seeds;                /* the sources and targets (dg__seeds) */
    } b;
    uint64_t wc_gen;              /* the weight check's cache: graph version it was made for */
    int wc_valid;
    uint32_t wc_neg;
    double wc_mean;
    size_t wc_narcs;              /* arcs when wc_mean was measured */
} dg__sssp_state;
#define DG__SSSP_MEC 16u             /* edges per chunk of the edge-parallel kernels */
#define DG__SSSP_INF 0x7f800000      /* bits of +INFINITY */
#define DG__SSSP_BATCH 64u           /* most iterations queued per read-back */
#define DG__SSSP_DELTA_C 256.0       /* automatic delta = C x mean weight / mean out-degree */
#define DG__SSSP_DELTA_C_FLAT 2.5    /* the same with the flat kernel (CPU devices: PoCL, scale 20, delta 8-12 ran fastest) */
#define DG__SSSP_SPLIT_WGS 4         /* default split_degree = this many work-groups' items */

typedef struct dg__sssp_run {
    dg_vertex src;                   /* the first source (for messages) */
    const dg__seeds *S;
    int early;                       /* NEAR_FAR with targets: stops once they are settled */
    int cut;                         /* it stopped: distances >= cut_bits are not final */
    uint32_t cut_bits;
    int neg;                         /* negative weights allowed (DG_SSSP_BELLMAN_FORD) */
    uint32_t iters, phases, rt;
    uint64_t relax, updates;
    float delta;
    uint32_t rounds;                 /* NEAR_FAR: local rounds per launch */
    uint32_t hub;                    /* NEAR_FAR: longer lists are cut into pieces (0: 4 x wg) */
} dg__sssp_run;

/* Weight check: the smallest vertex with a negative out-weight (0xffffffff: none) and the mean
   of the other finite weights (wanted for the automatic delta). Unweighted: none, mean 1.
   The device pass over all weights runs only when needed: for negatives, once a negative
   weight has ever been given (g->wmin), then once per graph version; for the mean, again
   when the number of arcs has moved by a quarter since it was measured. */
static dg_status dg__sssp_weights(dg_graph *g, int need_mean, uint32_t *neg, double *mean) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__sssp_state *ss = (dg__sssp_state *)g->dev->mod[DG__MOD_SSSP].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_kernel k = NULL;
    cl_uint nch, umec = DG__SSSP_MEC;
    cl_ulong tot;
    size_t ng, i;
    uint32_t *part = NULL;
    double sum = 0, cnt = 0;
    *neg = 0xffffffffu; *mean = 1.0;
    if (!g->st[0].wpool) return DG_OK;
    if (ss->wc_valid && ss->wc_gen == d->gen) { *neg = ss->wc_neg; *mean = ss->wc_mean; return DG_OK; }
    if (g->wmin >= 0 && (!need_mean || (ss->wc_valid && 4 * g->narcs >= 3 * ss->wc_narcs &&
                                        4 * g->narcs <= 5 * ss->wc_narcs))) {
        *mean = ss->wc_valid ? ss->wc_mean : 1.0;
        return DG_OK;
    }
    DG__TRY(dg__ec_ensure(g, 0, DG__SSSP_MEC));
    nch = (cl_uint)cs->ec_chunks; tot = cs->ec_total;
    ng = (nch + d->wg - 1) / d->wg;
    ng = ng < 1 ? 1 : ng > d->groups ? d->groups : ng;
    DG__TRY(dg__buf_fit(g, &ss->b.sp_part, (1 + 2 * ng) * 4));
    DG__TRY(dg__fill_bytes(g, ss->b.sp_part.m, 0xff, 0, 4));
    DG__TRY(dg__kernel(g, DG__K_SSSP_WEIGHTS, 0, &k));
    DG__TRY(dg__args(g, k, dg__adj(0, 0), DG__A(d->st[0].wpool.m), DG__A(cs->b.deg.m),
                           DG__A(cs->b.sv.m), DG__A(nch), DG__A(umec), DG__A(tot),
                           DG__A(ss->b.sp_part.m), DG__END));
    DG__TRY(dg__launch(g, k, ng * d->wg, d->wg));
    if (!(part = (uint32_t *)dg__alloc(g, (1 + 2 * ng) * 4))) { st = dg__oom(g, "weight check"); goto done; }
    DG__CL(clEnqueueReadBuffer(d->queue, ss->b.sp_part.m, CL_TRUE, 0, (1 + 2 * ng) * 4, part, 0, NULL, NULL));
    for (i = 0; i < ng; i++) {
        float f;
        memcpy(&f, &part[1 + 2 * i], 4);
        sum += f; cnt += part[2 + 2 * i];
    }
    ss->wc_neg = part[0];
    ss->wc_mean = cnt > 0 ? sum / cnt : 1.0;
    ss->wc_valid = 1; ss->wc_gen = d->gen; ss->wc_narcs = g->narcs;
    *neg = ss->wc_neg; *mean = ss->wc_mean;
done:
    dg__free(g, part);
    return st;
}

/* Names the first negative out-edge of vertex v in the error message. */
static dg_status dg__sssp_negative(dg_graph *g, dg_vertex v) {
    size_t deg = 0, cnt = 0, i;
    dg_vertex *ids;
    float *w;
    dg_status st = DG_ERR_INVALID_ARGUMENT;
    dg_degree(g, v, &deg);
    ids = (dg_vertex *)dg__alloc(g, (deg ? deg : 1) * sizeof(dg_vertex));
    w = (float *)dg__alloc(g, (deg ? deg : 1) * sizeof(float));
    if (!ids || !w) { dg__free(g, ids); dg__free(g, w); return dg__oom(g, "dg_sssp"); }
    dg_neighbors(g, v, ids, w, deg, &cnt);
    for (i = 0; i < cnt; i++)
        if (w[i] < 0) {
            st = dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_sssp: edge %d->%d has the negative weight %g "
                          "(negative weights need opt.negative_weights = 1: Bellman-Ford)", (int)v, (int)ids[i], (double)w[i]);
            break;
        }
    if (i == cnt) st = dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_sssp: vertex %d has a negative out-weight", (int)v);
    dg__free(g, ids); dg__free(g, w);
    return st;
}

/* Sets the edge-chunk arguments (5..10: wpool, off, sv, nchunks, mec, total) of an SSSP kernel
   after the adjacency arguments. */
static dg_status dg__sssp_chunk_args(dg_graph *g, cl_kernel k) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_mem w = g->st[0].wpool ? d->st[0].wpool.m : NULL;
    cl_uint nch = (cl_uint)cs->ec_chunks, umec = DG__SSSP_MEC;
    cl_ulong tot = cs->ec_total;
    DG__TRY(dg__args(g, k, dg__adj(0, 0), DG__A(w), DG__A(cs->b.deg.m), DG__A(cs->b.sv.m),
                           DG__A(nch), DG__A(umec), DG__A(tot), DG__END));
done:
    return st;
}

/* Looks for a cycle in the (racy) predecessor array of the negative-weight Bellman-Ford and
   weighs it with the graph's weights: *found = 1 for a negative one. O(n). */
static dg_status dg__sssp_pred_cycle(dg_graph *g, int *found) {
    dg__sssp_state *ss = (dg__sssp_state *)g->dev->mod[DG__MOD_SSSP].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    size_t n = g->id_bound, v;
    int32_t *p = (int32_t *)dg__alloc(g, n * 4);
    uint32_t *mark = (uint32_t *)dg__alloc(g, n * 4);
    *found = 0;
    if (!p || !mark) { st = dg__oom(g, "dg_sssp"); goto done; }
    DG__CL(clEnqueueReadBuffer(d->queue, ss->b.parent.m, CL_TRUE, 0, n * 4, p, 0, NULL, NULL));
    memset(mark, 0, n * 4);
    for (v = 0; v < n && !*found; v++) {   /* mark[x] = walk that saw x + 1 */
        size_t x = v;
        while (p[x] >= 0 && (size_t)p[x] < n && (size_t)p[x] != x && !mark[x]) { mark[x] = (uint32_t)v + 1; x = (size_t)p[x]; }
        if (mark[x] == (uint32_t)v + 1 && p[x] >= 0 && (size_t)p[x] != x) {   /* x is on a cycle */
            double w = 0;
            size_t y = x;
            do {
                float e = 0;
                if (dg_edge_weight(g, p[y], (dg_vertex)y, &e) != DG_OK) { w = 0; break; }
                w += e;
                y = (size_t)p[y];
            } while (y != x);
            if (w < 0) *found = 1;
        }
    }
done:
    dg__free(g, p); dg__free(g, mark);
    return st;
}

/* DG_SSSP_BELLMAN_FORD: passes over all edges, up to DG__SSSP_BATCH per read-back of the pass
   counters, until a pass lowers nothing. With negative weights: a cycle in the predecessors
   (checked after 64, 128, 256, ... passes) that weighs < 0, a distance at -INFINITY, or a
   pass n that still lowers something means a negative cycle. */
static dg_status dg__sssp_bf(dg_graph *g, dg__sssp_run *r) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__sssp_state *ss = (dg__sssp_state *)g->dev->mod[DG__MOD_SSSP].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_kernel k = NULL;
    cl_uint ring = DG_SSSP_RING, pass = 0, K = 1, j;
    cl_uint slots[DG_SSSP_RING * DG_CTL_WORDS];
    uint64_t alive = dg_vertex_count(g), next_check = 64;
    size_t nch;
    DG__TRY(dg__ec_ensure(g, 0, DG__SSSP_MEC));
    nch = cs->ec_chunks;
    if (nch == 0) { r->iters = 1; return DG_OK; }
    DG__TRY(dg__buf_fit(g, &ss->b.sp_ctl, sizeof slots));
    DG__TRY(dg__fill_bytes(g, ss->b.sp_ctl.m, 0, 0, sizeof slots));
    DG__TRY(dg__kernel(g, r->neg ? DG__K_SSSP_BF_NEG : DG__K_SSSP_BF, 0, &k));
    DG__TRY(dg__sssp_chunk_args(g, k));
    DG__ARG(k, 11, ss->b.dist.m); DG__ARG(k, 12, ss->b.sp_ctl.m); DG__ARG(k, 13, ring);
    if (r->neg) DG__ARG(k, 15, ss->b.parent.m);
    for (;;) {
        for (j = 0; j < K; j++) {
            cl_uint p = pass + j;
            DG__ARG(k, 14, p);
            DG__TRY(dg__launch(g, k, nch, d->wg));
        }
        DG__CL(clEnqueueReadBuffer(d->queue, ss->b.sp_ctl.m, CL_TRUE, 0, sizeof slots, slots, 0, NULL, NULL));
        r->rt++;
        for (j = 0; j < K; j++) {
            const cl_uint *s = slots + DG_CTL_WORDS * ((pass + j) % DG_SSSP_RING);
            r->relax += s[DG_BF_RELAXED];
            r->updates += s[DG_BF_UPDATES];
            r->iters++;
            if (s[DG_BF_NEG_INF]) return dg__fail(g, DG_ERR_NEGATIVE_CYCLE, "dg_sssp: a negative cycle is reachable from %d (a distance reached -inf)", (int)r->src);
            if (s[DG_BF_LOWERED] == 0) return DG_OK;
            if (r->neg && pass + j + 1 >= alive)
                return dg__fail(g, DG_ERR_NEGATIVE_CYCLE, "dg_sssp: a negative cycle is reachable from %d (pass %u still lowered distances)",
                                (int)r->src, (unsigned)(pass + j + 1));
        }
        pass += K;
        if (r->neg && pass >= next_check) {
            int found = 0;
            DG__TRY(dg__sssp_pred_cycle(g, &found));
            if (found) return dg__fail(g, DG_ERR_NEGATIVE_CYCLE, "dg_sssp: a negative cycle is reachable from %d", (int)r->src);
            next_check *= 2;
        }
        K = K * 2 > DG__SSSP_BATCH ? DG__SSSP_BATCH : K * 2;
    }
done:
    return st;
}

/* The sources (r->S, uploaded to ss->b.seeds by dg_sssp): distance 0 in dist (from word doff
   on; NULL: none), their own predecessors in pred (NULL: none). */
static dg_status dg__sssp_sources(dg_graph *g, dg__sssp_run *r, cl_mem dist, cl_uint doff, cl_mem pred) {
    dg__sssp_state *ss = (dg__sssp_state *)g->dev->mod[DG__MOD_SSSP].state;
    cl_uint ns = (cl_uint)r->S->ns;
    return dg__run(g, DG__K_SSSP_SOURCE, ns, DG__A(dist), DG__A(doff), DG__A(pred), DG__A(ss->b.seeds.m),
                   DG__A(ns), DG__END);
}

/* DG_SSSP_FRONTIER: the public primitives, round by round: advance from the vertices lowered
   last round, relaxing with atomic_min; filter the first copy of each; clear their claims.
   data = [n, dist bits..., claimed...] in ss->b.data; the distances go to ss->b.dist after. */
static dg_status dg__sssp_frontier(dg_graph *g, dg__sssp_run *r) {
    dg__sssp_state *ss = (dg__sssp_state *)g->dev->mod[DG__MOD_SSSP].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    dg_frontier *a = NULL, *b = NULL;
    size_t n = g->id_bound;
    cl_kernel ka = NULL, kf = NULL, kr = NULL;
    cl_int inf = DG__SSSP_INF;
    DG__TRY(dg_frontier_create(g, 1, &a));   /* (first: it syncs, which may drop kernels) */
    DG__TRY(dg_frontier_create(g, 1, &b));
    DG__TRY(dg__kernel(g, DG__K_SSSP_FR_ADVANCE, 0, &ka));
    DG__TRY(dg__kernel(g, DG__K_SSSP_FR_FILTER, 0, &kf));
    DG__TRY(dg__kernel(g, DG__K_SSSP_FR_RESET, 0, &kr));
    DG__TRY(dg__buf_fit(g, &ss->b.data, (2 * n + 1) * 4));
    DG__TRY(dg__write_u32(g, ss->b.data.m, 0, (uint32_t)n));
    DG__CL(clEnqueueFillBuffer(d->queue, ss->b.data.m, &inf, 4, 4, n * 4, 0, NULL, NULL));
    DG__TRY(dg__fill_bytes(g, ss->b.data.m, 0, 4 + n * 4, n * 4));
    DG__TRY(dg__sssp_sources(g, r, ss->b.data.m, 1, NULL));
    DG__TRY(dg_frontier_set(a, r->S->v, r->S->ns));
    for (;;) {
        cl_uint m;
        DG__TRY(dg__advance(g, ka, 0, a, b, ss->b.data.m, NULL, &r->relax));
        DG__TRY(dg__filter(g, kf, b, a, ss->b.data.m, NULL));
        DG__TRY(dg__frontier_n(a));
        r->rt += 3; r->iters++;
        r->updates += b->n_known ? b->n : 0;
        if (a->n == 0) break;
        m = (cl_uint)a->n;
        DG__TRY(dg__args(g, kr, DG__A(a->ids.m), DG__A(m), DG__A(ss->b.data.m), DG__END));
        DG__TRY(dg__launch(g, kr, m, d->wg));
    }
    DG__CL(clEnqueueCopyBuffer(d->queue, ss->b.data.m, ss->b.dist.m, 4, 0, n * 4, 0, NULL, NULL));
done:
    dg_frontier_destroy(a); dg_frontier_destroy(b);
    return st;
}

/* DG_SSSP_NEAR_FAR: launches of dg_sssp_nf (kernels/50_sssp.cl: each decides from the ring
   whether to relax, split the far pile or idle), up to DG__SSSP_BATCH per read-back. The first
   launches run as turns of one launch of dg_sssp_nf_deep while the queues are small (a grid, a
   road network, a query near its source: bench/NOTES.md, issue 16); the ordinary launches go on
   from the turn where it left. A deep launch whose groups were not all running (a barrier
   aborted) leaves a turn half done: the search then starts again without it, and this device
   keeps away from deep launches (d->deep_off, as dg_bfs). Test hook: dg__sssp_deep_turns (the
   most turns of a deep launch; 0: none). */
static cl_uint dg__sssp_deep_turns = 1u << 30;
/* Test hook: which kernel runs the launches (-1: dg_sssp_nf_flat on a CPU device, as dg_bfs's
   flat kernels, without deep launches; dg_sssp_nf on others; 1: the flat one everywhere; 0:
   never). */
static int dg__sssp_flat = -1;
static unsigned long dg__sssp_nf_searches[2];   /* (searches by dg_sssp_nf [0], dg_sssp_nf_flat [1]:
                                                   test_sssp checks that each ran) */
#ifndef DG__NFD_VERTICES
#define DG__NFD_VERTICES 512    /* a deep launch goes on while a turn's near queue has at most this
                                   many vertices a work-group (bench/NOTES.md, issue 16) */
#endif
static dg_status dg__sssp_nf(dg_graph *g, dg__sssp_run *r) {
    dg__sssp_state *ss = (dg__sssp_state *)g->dev->mod[DG__MOD_SSSP].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_uint hub = r->hub;
    size_t n = g->id_bound, cap = (size_t)(g->narcs / (4 * d->wg) + g->narcs / hub + 16), G = dg__deep_groups(d);
    cl_kernel k = NULL, ki = NULL, kd = NULL, kk[2];
    cl_uint ring = DG_SSSP_RING, L = 0, K = 1, j, ucap = (cl_uint)cap, a;
    const int flat = dg__flat_on(dg__sssp_flat, d);
    int deep = !flat && !d->deep_off && dg__sssp_deep_turns > 0 && dg__bfs_deep_groups >= 0;
    cl_uint rgroups = (cl_uint)d->groups, vmax = (cl_uint)(G * DG__NFD_VERTICES);
    cl_uint ns = (cl_uint)r->S->ns, nt = r->early ? (cl_uint)r->S->nt : 0u;
    cl_uint slots[DG_SSSP_RING * DG_CTL_WORDS], dctl[DG_NFD_WORDS] = { 0 };
    cl_mem w = g->st[0].wpool ? d->st[0].wpool.m : NULL;
    float delta = r->delta;
    cl_uint rounds = r->rounds;
    uint64_t limit = 4 * ((uint64_t)n + g->narcs) + 1024;   /* launches: never reached unless a bug */
    if (ns > vmax) deep = 0;      /* (many sources: the first turn is already too wide for G groups) */
    DG__TRY(dg__buf_fit(g, &ss->b.q[0], n * 4)); DG__TRY(dg__buf_fit(g, &ss->b.q[1], n * 4));
    DG__TRY(dg__buf_fit(g, &ss->b.sp_far[0], n * 4)); DG__TRY(dg__buf_fit(g, &ss->b.sp_far[1], n * 4));
    DG__TRY(dg__buf_fit(g, &ss->b.sp_stamp, n * 4)); DG__TRY(dg__buf_fit(g, &ss->b.sp_ff, n * 4));
    DG__TRY(dg__buf_fit(g, &ss->b.sp_lx[0], n * 4)); DG__TRY(dg__buf_fit(g, &ss->b.sp_lx[1], n * 4));
    DG__TRY(dg__buf_fit(g, &ss->b.sp_ex, n * 4));
    DG__TRY(dg__buf_fit(g, &ss->b.sp_pieces, 2 * cap * 8));
    DG__TRY(dg__buf_fit(g, &ss->b.sp_ctl, sizeof slots));
    DG__TRY(dg__kernel(g, DG__K_SSSP_NF_INIT, 0, &ki));
    DG__TRY(dg__kernel(g, flat ? DG__K_SSSP_NF_FLAT : DG__K_SSSP_NF, 0, &k));
    dg__sssp_nf_searches[flat]++;
    if (deep) {
        DG__TRY(dg__kernel(g, DG__K_SSSP_NF_DEEP, 0, &kd));
        DG__TRY(dg__buf_fit(g, &ss->b.sp_deep, sizeof dctl));
    }
    kk[0] = k; kk[1] = kd;
    for (a = 0; a < 2; a++) {   /* (a = 1: again from the start, after a deep launch aborted) */
        if (a) {
            DG__TRY(dg__fill(g, ss->b.dist.m, (int32_t)DG__SSSP_INF, n));
            DG__TRY(dg__sssp_sources(g, r, ss->b.dist.m, 0, NULL));
            r->iters = r->phases = 0; r->relax = r->updates = 0;
            L = 0; K = 1;
        }
        DG__TRY(dg__fill_bytes(g, ss->b.sp_stamp.m, 0, 0, n * 4));
        DG__TRY(dg__fill_bytes(g, ss->b.sp_ff.m, 0, 0, n * 4));
        DG__CL(clEnqueueCopyBuffer(d->queue, ss->b.seeds.m, ss->b.q[0].m, 0, 0, (size_t)ns * 4, 0, NULL, NULL));
        DG__TRY(dg__args(g, ki, DG__A(ss->b.sp_ctl.m), DG__A(ring), DG__A(delta), DG__A(ns), DG__END));
        DG__TRY(dg__launch(g, ki, DG_CTL_WORDS * DG_SSSP_RING, d->wg));
        for (j = 0; j < 2 && kk[j]; j++) {   /* (the two kernels take the same arguments) */
            cl_kernel x = kk[j];
            cl_mem dc = j ? ss->b.sp_deep.m : NULL;
            cl_uint turns = j ? dg__sssp_deep_turns : 1u, spins = j ? dg__bfs_deep_spins : 0u;
            DG__TRY(dg__adj_args(g, x, 0, 0, 0));
            DG__ARG(x, 5, w); DG__ARG(x, 6, ss->b.q[0].m); DG__ARG(x, 7, ss->b.q[1].m);
            DG__ARG(x, 8, ss->b.sp_far[0].m); DG__ARG(x, 9, ss->b.sp_far[1].m);
            DG__ARG(x, 10, ss->b.sp_pieces.m); DG__ARG(x, 11, ucap); DG__ARG(x, 12, hub);
            DG__ARG(x, 13, ss->b.sp_ctl.m); DG__ARG(x, 14, ring); DG__ARG(x, 15, L); DG__ARG(x, 16, delta);
            DG__ARG(x, 17, ss->b.dist.m); DG__ARG(x, 18, ss->b.sp_stamp.m); DG__ARG(x, 19, ss->b.sp_ff.m);
            DG__ARG(x, 20, ss->b.sp_lx[0].m); DG__ARG(x, 21, ss->b.sp_lx[1].m); DG__ARG(x, 22, ss->b.sp_ex.m);
            DG__ARG(x, 23, rounds); DG__ARG(x, 24, ss->b.seeds.m); DG__ARG(x, 25, ns); DG__ARG(x, 26, nt);
            DG__ARG(x, 27, dc); DG__ARG(x, 28, turns); DG__ARG(x, 29, spins);
            DG__ARG(x, 30, rgroups); DG__ARG(x, 31, vmax);
        }
        if (!deep) break;
        {   /* the deep launch: turns L = 0, 1, ... */
            DG__TRY(dg__fill_bytes(g, ss->b.sp_deep.m, 0, 0, sizeof dctl));
            DG__TRY(dg__launch(g, kd, G * d->wg, d->wg));
            DG__CL(clEnqueueReadBuffer(d->queue, ss->b.sp_deep.m, CL_TRUE, 0, sizeof dctl, dctl, 0, NULL, NULL));
            r->rt++;
        }
        if (dctl[DG_NFD_ABORTED] || dctl[DG_NFD_RAN] != G) {
            char msg[200];
            snprintf(msg, sizeof msg, "dyngraph: dg_sssp: %u of %u work-groups ran at once; near-far runs "
                     "without deep launches on this device", (unsigned)dctl[DG_NFD_RAN], (unsigned)G);
            dg__log(g, DG_LOG_WARNING, msg);
            d->deep_off = 1;
            deep = 0;
            kk[1] = NULL;
            continue;
        }
        L = dctl[DG_NFD_NEXT];
        r->phases += dctl[DG_NFD_PHASES];
        r->relax += dctl[DG_NFD_RELAXED] | (uint64_t)dctl[DG_NFD_RELAXED + 1] << 32;
        r->updates += dctl[DG_NFD_LOWERED] | (uint64_t)dctl[DG_NFD_LOWERED + 1] << 32;
        r->iters += L - dctl[DG_NFD_PHASES];   /* (less the idle turn, if the search ended: below) */
        if (dctl[DG_NFD_IDLE]) {   /* it ended the search (the ring only for a stop at the targets) */
            const cl_uint *p = slots + DG_CTL_WORDS * ((L + DG_SSSP_RING - 2) % DG_SSSP_RING);
            r->iters--;
            if (nt && L > 1) {
                DG__CL(clEnqueueReadBuffer(d->queue, ss->b.sp_ctl.m, CL_TRUE, 0, sizeof slots, slots, 0, NULL, NULL));
                r->rt++;
            }
            if (nt && L > 1 && p[DG_NF_MODE] == DG_NF_MODE_SPLIT && p[DG_NF_UNSETTLED] == 0) {
                r->cut = 1;
                r->cut_bits = p[DG_NF_THR];
            }
            return DG_OK;
        }
        break;
    }
    for (;;) {
        for (j = 0; j < K; j++, L++) {
            DG__ARG(k, 15, L);
            DG__TRY(dg__launch(g, k, flat ? d->cu * 2 * 64 : d->groups * d->wg, flat ? 64 : d->wg));
        }
        DG__CL(clEnqueueReadBuffer(d->queue, ss->b.sp_ctl.m, CL_TRUE, 0, sizeof slots, slots, 0, NULL, NULL));
        r->rt++;
        for (j = L - K; j < L; j++) {
            const cl_uint *s = slots + DG_CTL_WORDS * (j % DG_SSSP_RING);
            if (s[DG_NF_MODE] == DG_NF_MODE_IDLE) {
                const cl_uint *p = slots + DG_CTL_WORDS * ((j + DG_SSSP_RING - 1) % DG_SSSP_RING);
                if (nt && j > 0 && p[DG_NF_MODE] == DG_NF_MODE_SPLIT && p[DG_NF_UNSETTLED] == 0) {
                    r->cut = 1;                  /* stopped at the targets (see dg_sssp_nf) */
                    r->cut_bits = p[DG_NF_THR];
                }
                return DG_OK;
            }
            if (s[DG_NF_MODE] == DG_NF_MODE_SPLIT) {
                r->phases++;
            } else {
                r->iters++;
                r->relax += s[DG_NF_RELAXED];
                r->updates += s[DG_NF_LOWERED];
            }
        }
        if (L > limit) return dg__fail(g, DG_ERR_LIMIT, "dg_sssp: near-far did not finish after %u launches", (unsigned)L);
        K = K * 2 > DG__SSSP_BATCH ? DG__SSSP_BATCH : K * 2;
    }
done:
    return st;
}

/* Checks the call (source, opt) before anything runs, copies opt to *o and settles the strategy. */
static dg_status dg__sssp_options_check(dg_graph *g, const dg_sssp_options *opt, dg_sssp_options *o) {
    dg_status st = dg__search_args(g, "dg_sssp", opt, o, sizeof *o);
    if (st != DG_OK)
        return st;
    if ((int)o->strategy < (int)DG_SSSP_AUTO || (int)o->strategy > (int)DG_SSSP_NEAR_FAR)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_sssp: unknown strategy %d", (int)o->strategy);
    if (!(o->delta >= 0))
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_sssp: delta must be positive (or 0: automatic)");
    if (o->negative_weights && o->strategy != DG_SSSP_AUTO && o->strategy != DG_SSSP_BELLMAN_FORD)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_sssp: negative_weights needs DG_SSSP_BELLMAN_FORD (or AUTO)");
    if ((o->path || o->path_length) && o->target_count == 0)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_sssp: a path needs a target");
    if (o->strategy == DG_SSSP_AUTO)
        o->strategy = o->negative_weights ? DG_SSSP_BELLMAN_FORD : DG_SSSP_NEAR_FAR;
    return DG_OK;
}

/* Fills in every default of opt (manual section 14), the one place they are decided: after the
   sync, since delta follows the weights (mean: their mean) and split_degree the work-group. */
static void dg__sssp_defaults(const dg_graph *g, dg_sssp_options *o, double mean) {
    if (o->delta == 0) {
        size_t nv = dg_vertex_count(g);
        double deg = nv ? (double)g->narcs / (double)nv : 1.0;
        const double c = dg__flat_on(dg__sssp_flat, g->dev) ? DG__SSSP_DELTA_C_FLAT : DG__SSSP_DELTA_C;
        o->delta = (float)(c * (mean > 0 ? mean : 1.0) / (deg > 1 ? deg : 1.0));
    }
    if (o->local_rounds == 0)
        o->local_rounds = DG_SSSP_DEFAULT_LOCAL_ROUNDS;
    if (o->split_degree == 0)
        o->split_degree = (uint32_t)(DG__SSSP_SPLIT_WGS * g->dev->wg);
}

/* The shortest-path tree from the final distances: one strict pass (non-negative weights),
   then claiming passes until nothing changes (see dg_sssp_pred). */
static dg_status dg__sssp_tree(dg_graph *g, dg__sssp_run *r) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__sssp_state *ss = (dg__sssp_state *)g->dev->mod[DG__MOD_SSSP].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_kernel k = NULL;
    cl_uint mode, flag = 0;
    size_t nch;
    DG__TRY(dg__ec_ensure(g, 0, DG__SSSP_MEC));
    nch = cs->ec_chunks;
    DG__TRY(dg__fill(g, ss->b.parent.m, -1, g->id_bound));
    DG__TRY(dg__sssp_sources(g, r, NULL, 0, ss->b.parent.m));
    if (nch == 0) return DG_OK;
    DG__TRY(dg__buf_fit(g, &ss->b.flag, 8));
    DG__TRY(dg__kernel(g, DG__K_SSSP_PRED, 0, &k));
    DG__TRY(dg__sssp_chunk_args(g, k));
    DG__ARG(k, 11, ss->b.dist.m); DG__ARG(k, 12, ss->b.parent.m); DG__ARG(k, 14, ss->b.flag.m);
    for (mode = r->neg ? 1 : 0;; mode = 1) {
        DG__ARG(k, 13, mode);
        DG__TRY(dg__fill_bytes(g, ss->b.flag.m, 0, 0, 4));
        DG__TRY(dg__launch(g, k, nch, d->wg));
        if (mode == 0) continue;
        DG__TRY(dg__read_u32(g, ss->b.flag.m, 0, &flag));
        if (!flag) break;
    }
done:
    return st;
}

DG_API dg_status dg_sssp(dg_graph *g, dg_vertex source, float *dist, const dg_sssp_options *opt) {
    float *hd = NULL;                 /* the distances read back: dist, or ours for the stats */
    uint32_t neg;                     /* a vertex with a negative in-weight, or 0xffffffff */
    double t0, sync_ms, mean;
    dg__sssp_state *ss;
    dg_sssp_options o;
    dg__sssp_run r;
    dg__seeds S;
    dg__dev *d = NULL;
    dg_status st = DG_OK;
    size_t n, i;
    int want_tree;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__sssp_options_check(g, opt, &o)) != DG_OK) return st;
    if ((st = dg__seeds_make(g, "dg_sssp", source, o.sources, o.source_count, o.targets, o.target_count, &S)) != DG_OK)
        return st;
    want_tree = o.pred || o.path || o.path_length;
    t0 = dg__now_ms();
    DG__TRY(dg__sync(g));
    d = g->dev;
    if (!(ss = DG__STATE(g, DG__MOD_SSSP, dg__sssp_state))) { st = DG_ERR_OUT_OF_MEMORY; goto done; }
    if (o.dist_buffer) DG__TRY(dg__out_buffer_check(g, o.dist_buffer, g->id_bound * 4, "dg_sssp"));
    DG__TRY(dg__sssp_weights(g, o.strategy == DG_SSSP_NEAR_FAR && o.delta == 0, &neg, &mean));
    if (neg != 0xffffffffu && !o.negative_weights) { st = dg__sssp_negative(g, (dg_vertex)neg); goto done; }
    sync_ms = dg__now_ms() - t0;
    dg__sssp_defaults(g, &o, mean);
    memset(&r, 0, sizeof r);
    r.src = source != -1 ? source : S.v[0]; r.S = &S; r.neg = neg != 0xffffffffu;
    r.early = S.targets && o.strategy == DG_SSSP_NEAR_FAR;
    r.delta = o.delta;
    r.rounds = o.local_rounds < 0 ? 0u : (uint32_t)o.local_rounds;
    r.hub = o.split_degree;
    n = g->id_bound;
    dg__timing_reset(d);
    d->ksum = o.stats != NULL;                 /* kernel_ms: every kernel's event kept */
    DG__TRY(dg__fit_fill(g, &ss->b.dist, DG__SSSP_INF, n));
    if (r.neg || want_tree) DG__TRY(dg__fit_fill(g, &ss->b.parent, -1, n));
    DG__TRY(dg__buf_fit(g, &ss->b.seeds, (S.ns + S.nt) * 4));
    DG__TRY(dg__clwrite(g, ss->b.seeds.m, S.v, (S.ns + S.nt) * 4));
    DG__TRY(dg__sssp_sources(g, &r, ss->b.dist.m, 0, r.neg ? ss->b.parent.m : NULL));
    if (!(r.early && S.nt == 0)) {   /* (every target is a source: nothing to search) */
        switch (o.strategy) {
        case DG_SSSP_BELLMAN_FORD: DG__TRY(dg__sssp_bf(g, &r)); break;
        case DG_SSSP_FRONTIER: DG__TRY(dg__sssp_frontier(g, &r)); break;
        default: DG__TRY(dg__sssp_nf(g, &r)); break;
        }
    }
    if (r.cut) {
        cl_uint un = (cl_uint)n, cut = r.cut_bits;
        DG__TRY(dg__run(g, DG__K_SSSP_CUT, n, DG__A(ss->b.dist.m), DG__A(un), DG__A(cut), DG__END));
    }
    if (want_tree) DG__TRY(dg__sssp_tree(g, &r));
    DG__CL(clFinish(d->queue));
    if (o.stats) {
        memset(o.stats, 0, sizeof *o.stats);
        o.stats->device_ms = dg__timing_ms(d);
        o.stats->kernel_ms = dg__kernel_ms(d);
    }
    if (S.targets && (o.path || o.path_length)) {
        size_t len = 0;
        DG__TRY(dg__path(g, ss->b.parent.m, o.targets[0], o.path, o.path_capacity, &len));
        if (o.path_length) *o.path_length = len;
    }
    hd = dist;
    if (!hd && o.stats && n && !(hd = (float *)dg__alloc(g, n * 4))) { st = dg__oom(g, "dg_sssp"); goto done; }
    t0 = dg__now_ms();
    if (hd && n) DG__TRY(dg__read_out(g, ss->b.dist.m, 0, n * 4, hd));
    if (o.pred && n) DG__TRY(dg__read_out(g, ss->b.parent.m, 0, n * 4, o.pred));
    if (o.stats && (hd || o.pred) && n) o.stats->read_ms = dg__now_ms() - t0;
    if (o.dist_buffer && n)   /* (after the reads: read_ms is theirs alone) */
        DG__CL(clEnqueueCopyBuffer(d->queue, ss->b.dist.m, o.dist_buffer, 0, 0, n * 4, 0, NULL, NULL));
    if (o.stats) {
        uint64_t reached = 0;
        for (i = 0; i < n; i++) reached += hd[i] < INFINITY;
        o.stats->strategy = o.strategy;
        o.stats->iterations = r.iters;
        o.stats->phases = r.phases;
        o.stats->host_round_trips = r.rt;
        o.stats->delta = o.strategy == DG_SSSP_NEAR_FAR ? r.delta : 0.0f;
        o.stats->relaxations = r.relax;
        o.stats->updates = r.updates;
        o.stats->vertices_reached = reached;
        o.stats->sync_ms = sync_ms;
    }
done:
    if (hd && hd != dist) dg__free(g, hd);
    if (d) { dg__timing_reset(d); d->ksum = 0; }
    dg__seeds_free(g, &S);
    return st;
}

/* =========================================================================
   Reachability: the GRAIL index and batched queries (manual section 15)   >>reach
   =========================================================================
   The index: the graph's strongly connected components (dg__reach_scc_dev or iterative
   Tarjan on a CSR snapshot of the out-lists), the DAG of components, and per component d intervals from d randomized
   depth-first traversals of the DAG (roots in random order, each list from a random start).
   It stays valid as long as nothing was inserted; removals turn off its "yes" shortcuts
   (dg__reach.ver_del != g->ver_del: filter-only). */
/* The reachability module's device state (the search's arrays are kept for the next call). */
typedef struct dg__reach_state {
    struct {
        dg__buf rc_comp, rc_lab, rc_tree, rc_qs, rc_qt, rc_res, rc_und, rc_cnt;
        dg__buf rc_vis, rc_touch, rc_f[2], rc_q[2], rc_done, rc_bq, rc_found, rc_crow, rc_ccol, rc_hub;
        dg__buf rc_sig;
    } b;
    size_t rc_words;              /* n x W of rc_vis/rc_f when they were last zeroed (0: not) */
    uint64_t rc_index;            /* the index build whose labels rc_comp/rc_lab/rc_tree hold (0: none) */
} dg__reach_state;
typedef struct dg__reach {
    uint64_t ver_ins, ver_del;    /* the graph's versions at the build */
    uint64_t build_no;            /* 1, 2, ...: which build (the device copy follows it) */
    uint64_t seed;
    uint32_t d;
    dg_reach_build built_on;
    size_t nbound, ncomp;         /* id bound at the build; components */
    int32_t *comp;                /* nbound: component of each vertex (-1: removed) */
    int32_t *lab;                 /* ncomp x (2d + 1) x (lo, hi): d intervals of descendants, d of
                                     ancestors, then the levels (depth, height) as one more
                                     (dg__reach_levels) */
    int32_t *tree;                /* ncomp x (lo, rank, alo, arank): the subtree of the component in
                                     traversal 0's spanning forest of the DAG holds the ranks
                                     lo..rank (descendants: an exact "yes"), in that of the reverse
                                     DAG alo..arank (ancestors) */
    uint32_t *crow;               /* the DAG of components, out-arcs (CSR: ncomp + 1 offsets, */
    int32_t *ccol;                /* crow[ncomp] heads), searched while the index is exact */
    uint64_t *hub;                /* ncomp x 2: bit i of [2c] set if hub i reaches c, of [2c + 1]
                                     if c reaches hub i (dg__reach_hubs) */
    uint32_t *sig;                /* ncomp x 2 x DG_REACH_SIG_WORDS: c's descendant signature,
                                     then its ancestor signature (dg__reach_sigs) */
} dg__reach;

static void dg__reach_drop(dg_graph *g, dg__reach *r) {
    dg__free(g, r->comp); dg__free(g, r->lab); dg__free(g, r->tree);
    dg__free(g, r->crow); dg__free(g, r->ccol); dg__free(g, r->hub); dg__free(g, r->sig);
    r->comp = r->lab = r->tree = r->ccol = NULL;
    r->hub = NULL;
    r->crow = r->sig = NULL;
    r->ncomp = r->nbound = 0;
}
static void dg__reach_free(dg_graph *g) {
    if (!g->reach) return;
    dg__reach_drop(g, g->reach);
    dg__free(g, g->reach);
    g->reach = NULL;
}

static uint64_t dg__rng(uint64_t *s) {   /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The out-lists of the live vertices as a CSR on the host: row has n+1 entries. */
static dg_status dg__host_csr(dg_graph *g, size_t n, uint32_t **prow, int32_t **pcol) {
    const dg__store *s = &g->st[0];
    uint32_t *row = (uint32_t *)dg__alloc(g, (n + 1) * sizeof(uint32_t));
    int32_t *col = NULL;
    size_t v, m = 0;
    dg_status st;
    *prow = NULL; *pcol = NULL;
    if (!row) return dg__oom(g, "dg_reach: CSR snapshot");
    if ((st = dg__fresh_all(g)) != DG_OK) { dg__free(g, row); return st; }
    for (v = 0; v < n; v++) {
        row[v] = (uint32_t)m;
        if (dg__alive(g, (dg_vertex)v)) m += dg__deg(g, s, (dg_vertex)v);
    }
    row[n] = (uint32_t)m;
    if (m > 0xffffffffu) { dg__free(g, row); return dg__fail(g, DG_ERR_LIMIT, "dg_reach: 2^32 arcs or more"); }
    if (!(col = (int32_t *)dg__alloc(g, (m ? m : 1) * sizeof(int32_t)))) {
        dg__free(g, row);
        return dg__oom(g, "dg_reach: CSR snapshot");
    }
    for (v = 0; v < n; v++) {
        int32_t j, runs;
        size_t at = row[v];
        if (row[v + 1] == row[v]) continue;
        runs = dg__list_runs(g, s, (dg_vertex)v);
        for (j = 0; j < runs; j++) {
            uint32_t len;
            size_t pos = dg__list_run(g, s, (dg_vertex)v, j, &len);
            memcpy(col + at, s->pool + pos, len * sizeof(int32_t));
            at += len;
        }
    }
    *prow = row; *pcol = col;
    return DG_OK;
}

/* Strongly connected components (Tarjan, iterative): comp[v] for the live vertices, -1 for
   the others; components are numbered in the order Tarjan completes them (sinks first). */
static dg_status dg__reach_scc(dg_graph *g, size_t n, const uint32_t *row, const int32_t *col,
                               int32_t *comp, size_t *ncomp) {
    int32_t *idx = (int32_t *)dg__alloc(g, (n ? n : 1) * sizeof(int32_t));
    int32_t *low = (int32_t *)dg__alloc(g, (n ? n : 1) * sizeof(int32_t));
    int32_t *stk = (int32_t *)dg__alloc(g, (n ? n : 1) * sizeof(int32_t));
    int32_t *cs = (int32_t *)dg__alloc(g, (n ? n : 1) * sizeof(int32_t));
    uint32_t *ce = (uint32_t *)dg__alloc(g, (n ? n : 1) * sizeof(uint32_t));
    size_t r, nst = 0, ncs, nc = 0;
    int32_t counter = 0;
    dg_status st = DG_OK;
    if (!idx || !low || !stk || !cs || !ce) { st = dg__oom(g, "dg_reach: components"); goto done; }
    for (r = 0; r < n; r++) { idx[r] = -1; comp[r] = -1; }
    for (r = 0; r < n; r++) {
        if (idx[r] >= 0 || !dg__alive(g, (dg_vertex)r)) continue;
        idx[r] = low[r] = counter++; stk[nst++] = (int32_t)r; comp[r] = -2;
        cs[0] = (int32_t)r; ce[0] = row[r]; ncs = 1;
        while (ncs) {
            int32_t v = cs[ncs - 1];
            if (ce[ncs - 1] < row[v + 1]) {
                int32_t u = col[ce[ncs - 1]++];
                if (idx[u] < 0) {
                    idx[u] = low[u] = counter++; stk[nst++] = u; comp[u] = -2;
                    cs[ncs] = u; ce[ncs] = row[u]; ncs++;
                } else if (comp[u] == -2 && idx[u] < low[v]) low[v] = idx[u];
            } else {
                ncs--;
                if (low[v] == idx[v]) {
                    int32_t w;
                    do { w = stk[--nst]; comp[w] = (int32_t)nc; } while (w != v);
                    nc++;
                }
                if (ncs && low[v] < low[cs[ncs - 1]]) low[cs[ncs - 1]] = low[v];
            }
        }
    }
    *ncomp = nc;
done:
    dg__free(g, idx); dg__free(g, low); dg__free(g, stk); dg__free(g, cs); dg__free(g, ce);
    return st;
}

/* The reverse of a CSR of nc rows (in-arcs as lists). */
static dg_status dg__csr_reverse(dg_graph *g, size_t nc, const uint32_t *row, const int32_t *col,
                                 uint32_t **prow, int32_t **pcol) {
    size_t m = row[nc], i, c;
    uint32_t *rrow = (uint32_t *)dg__alloc(g, (nc + 1) * sizeof(uint32_t));
    int32_t *rcol = (int32_t *)dg__alloc(g, (m ? m : 1) * sizeof(int32_t));
    *prow = NULL; *pcol = NULL;
    if (!rrow || !rcol) { dg__free(g, rrow); dg__free(g, rcol); return dg__oom(g, "dg_reach: reverse DAG"); }
    memset(rrow, 0, (nc + 1) * sizeof(uint32_t));
    for (i = 0; i < m; i++) rrow[col[i] + 1]++;
    for (c = 0; c < nc; c++) rrow[c + 1] += rrow[c];
    for (c = 0; c < nc; c++)
        for (i = row[c]; i < row[c + 1]; i++) rcol[rrow[col[i]]++] = (int32_t)c;
    for (c = nc; c > 0; c--) rrow[c] = rrow[c - 1];
    rrow[0] = 0;
    *prow = rrow; *pcol = rcol;
    return DG_OK;
}

/* Label slot k of component c: lab + 2 * (c * DG__RS(R) + k); slots 0..d-1 from traversals of
   the DAG (descendants), d..2d-1 of the reverse DAG (ancestors), 2d the levels. */
#define DG__RS(R) (2 * (size_t)(R)->d + 1)

/* d intervals per component from d randomized DFS traversals of the DAG row/col (nc
   vertices) into slots k0..k0+d-1: post-order rank (1..nc) and the smallest rank below.
   Traversal 0 also gives the tree intervals (of the forward DAG into tree[4c], [4c+1], of the
   reverse DAG into tree[4c+2], [4c+3]). */
static dg_status dg__reach_labels(dg_graph *g, dg__reach *R, size_t nc, const uint32_t *crow,
                                  const int32_t *ccol, size_t k0, uint64_t rs) {
    int32_t *roots = (int32_t *)dg__alloc(g, (nc ? nc : 1) * sizeof(int32_t));
    int32_t *cs = (int32_t *)dg__alloc(g, (nc ? nc : 1) * sizeof(int32_t));
    uint32_t *cj = (uint32_t *)dg__alloc(g, (nc ? nc : 1) * sizeof(uint32_t));
    uint32_t *co = (uint32_t *)dg__alloc(g, (nc ? nc : 1) * sizeof(uint32_t));
    uint8_t *indeg = (uint8_t *)dg__alloc(g, nc ? nc : 1);
    const size_t ns = DG__RS(R);
    size_t nroots = 0, c, k, i;
    dg_status st = DG_OK;
#define DG__LAB(c, k, j) R->lab[((size_t)(c) * ns + k0 + (k)) * 2 + (j)]
    if (!roots || !cs || !cj || !co || !indeg) { st = dg__oom(g, "dg_reach: labels"); goto done; }
    memset(indeg, 0, nc);
    for (i = 0; i < crow[nc]; i++) indeg[ccol[i]] = 1;
    for (c = 0; c < nc; c++) if (!indeg[c]) roots[nroots++] = (int32_t)c;
    for (k = 0; k < R->d; k++) {
        int32_t rank = 0;
        size_t ri;
        const size_t tree = k == 0 ? (k0 == 0 ? 1 : 3) : 0;   /* 1 + slot of the tree interval */
        for (c = 0; c < nc; c++) DG__LAB(c, k, 1) = 0;                 /* hi 0: not visited */
        for (ri = nroots; ri > 1; ri--) {                           /* shuffle the roots */
            size_t j = (size_t)(dg__rng(&rs) % ri);
            int32_t t = roots[ri - 1]; roots[ri - 1] = roots[j]; roots[j] = t;
        }
        for (ri = 0; ri < nroots; ri++) {
            size_t ncs = 0;
            int32_t u = roots[ri];
            for (;;) {
                if (u >= 0) {                                       /* enter u */
                    uint32_t du = crow[u + 1] - crow[u];
                    DG__LAB(u, k, 1) = -1;                          /* on the stack */
                    if (tree) R->tree[4 * (size_t)u + tree - 1] = rank + 1;
                    cs[ncs] = u; cj[ncs] = 0;
                    co[ncs] = du ? (uint32_t)(dg__rng(&rs) % du) : 0;   /* a random first child */
                    ncs++;
                    u = -1;
                }
                if (!ncs) break;
                {
                    int32_t v = cs[ncs - 1];
                    uint32_t deg = crow[v + 1] - crow[v];
                    if (cj[ncs - 1] < deg) {
                        uint32_t j = cj[ncs - 1]++, o = co[ncs - 1] + j;
                        int32_t w = ccol[crow[v] + (o >= deg ? o - deg : o)];
                        if (DG__LAB(w, k, 1) == 0) u = w;
                    } else {                                        /* leave v */
                        int32_t lo = ++rank;
                        uint32_t e;
                        for (e = crow[v]; e < crow[v + 1]; e++)
                            if (DG__LAB(ccol[e], k, 0) < lo) lo = DG__LAB(ccol[e], k, 0);
                        DG__LAB(v, k, 0) = lo;
                        DG__LAB(v, k, 1) = rank;
                        if (tree) R->tree[4 * (size_t)v + tree] = rank;
                        ncs--;
                    }
                }
            }
        }
    }
#undef DG__LAB
done:
    dg__free(g, roots); dg__free(g, cs); dg__free(g, cj); dg__free(g, co); dg__free(g, indeg);
    return st;
}

/* The same slots by level passes on the device (kernels/60_reach.cl: dg_reach_forest), for
   the DAG (dir 0: slots 0..d-1, levels by depth) and its reverse (dir 1: slots d..2d-1, levels
   by height); the levels (slot 2d) must be in R already; the labels, the trees and the
   signatures (R->sig, allocated here) come back into R. */
static dg_status dg__reach_labels_dev(dg_graph *g, dg__reach *R, size_t nc, const uint32_t *crow,
                                      const int32_t *ccol, const uint32_t *rrow, const int32_t *rcol,
                                      uint64_t seed) {
    enum { B_CROW, B_CCOL, B_RROW, B_RCOL, B_ORDER, B_TOTAL, B_PAR, B_SIZE, B_BASE, B_ALLOC, B_N };
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    dg__buf b[B_N], lab, tree, sig;
    uint32_t *lv = NULL;
    int32_t *order = NULL;
    size_t m = crow[nc], i, c, ncx = nc ? nc : 1;
    cl_kernel kf = NULL;
    cl_uint ns = (cl_uint)DG__RS(R), k, phase, dir;
    uint32_t zero = 0;
    memset(b, 0, sizeof b); memset(&lab, 0, sizeof lab); memset(&tree, 0, sizeof tree);
    memset(&sig, 0, sizeof sig);
    order = (int32_t *)dg__alloc(g, ncx * sizeof(int32_t));
    lv = (uint32_t *)dg__alloc(g, (nc + 2) * sizeof(uint32_t));
    R->sig = (uint32_t *)dg__alloc(g, ncx * 8 * DG_REACH_SIG_WORDS);
    if (!order || !lv || !R->sig) { st = dg__oom(g, "dg_reach: device build"); goto done; }
    for (i = 0; i < B_N; i++) {
        size_t bytes = i == B_CROW || i == B_RROW ? (nc + 1) * 4 : i == B_CCOL || i == B_RCOL ? (m ? m : 1) * 4
                     : i == B_TOTAL ? 8 : ncx * 4;
        DG__TRY(dg__buf_fit(g, &b[i], bytes));
    }
    DG__TRY(dg__buf_fit(g, &lab, ncx * ns * 8));
    DG__TRY(dg__buf_fit(g, &tree, ncx * 16));
    DG__TRY(dg__buf_fit(g, &sig, ncx * 8 * DG_REACH_SIG_WORDS));
    if (nc) DG__CL(clEnqueueWriteBuffer(d->queue, lab.m, CL_FALSE, 0, nc * ns * 8, R->lab, 0, NULL, NULL));   /* the levels */
    DG__CL(clEnqueueWriteBuffer(d->queue, b[B_CROW].m, CL_FALSE, 0, (nc + 1) * 4, crow, 0, NULL, NULL));
    DG__CL(clEnqueueWriteBuffer(d->queue, b[B_RROW].m, CL_FALSE, 0, (nc + 1) * 4, rrow, 0, NULL, NULL));
    if (m) {
        DG__CL(clEnqueueWriteBuffer(d->queue, b[B_CCOL].m, CL_FALSE, 0, m * 4, ccol, 0, NULL, NULL));
        DG__CL(clEnqueueWriteBuffer(d->queue, b[B_RCOL].m, CL_FALSE, 0, m * 4, rcol, 0, NULL, NULL));
    }
    DG__TRY(dg__kernel(g, DG__K_REACH_FOREST, 0, &kf));
    for (dir = 0; dir < 2; dir++) {
        /* dir 1 swaps the roles of out- and in-arcs */
        cl_mem bo = b[dir ? B_RROW : B_CROW].m, bc = b[dir ? B_RCOL : B_CCOL].m;
        cl_mem bi = b[dir ? B_CROW : B_RROW].m, bic = b[dir ? B_CCOL : B_RCOL].m;
        cl_uint useed = (cl_uint)(seed ^ (seed >> 32)) + 7919u * dir;
        size_t nlv = 0, L;
        /* levels: depth (dir 0) or height (dir 1), from dg__reach_levels; order[] lists the
           components level by level (counting sort), level L at lv[L]..lv[L+1] */
        for (c = 0; c < nc; c++) {
            size_t l = (size_t)R->lab[2 * (c * ns + 2 * R->d) + dir];
            if (l + 1 > nlv) nlv = l + 1;
        }
        memset(lv, 0, (nlv + 1) * sizeof(uint32_t));
        for (c = 0; c < nc; c++) lv[R->lab[2 * (c * ns + 2 * R->d) + dir] + 1]++;
        for (L = 0; L < nlv; L++) lv[L + 1] += lv[L];
        for (c = 0; c < nc; c++) order[lv[R->lab[2 * (c * ns + 2 * R->d) + dir]]++] = (int32_t)c;
        for (L = nlv; L > 0; L--) lv[L] = lv[L - 1];
        lv[0] = 0;
        if (nc) DG__CL(clEnqueueWriteBuffer(d->queue, b[B_ORDER].m, CL_TRUE, 0, nc * 4, order, 0, NULL, NULL));
        DG__ARG(kf, 0, bo); DG__ARG(kf, 1, bc); DG__ARG(kf, 2, bi);
        DG__ARG(kf, 3, bic); DG__ARG(kf, 4, b[B_ORDER].m); DG__ARG(kf, 9, ns); DG__ARG(kf, 10, useed);
        DG__ARG(kf, 11, b[B_PAR].m); DG__ARG(kf, 12, b[B_SIZE].m); DG__ARG(kf, 13, b[B_BASE].m);
        DG__ARG(kf, 14, b[B_ALLOC].m); DG__ARG(kf, 15, b[B_TOTAL].m); DG__ARG(kf, 16, lab.m); DG__ARG(kf, 17, tree.m);
        DG__ARG(kf, 18, sig.m);
        for (k = 0; k < R->d; k++) {
            cl_uint slot = k + dir * R->d;
            DG__ARG(kf, 8, slot);
            DG__TRY(dg__write_u32(g, b[B_TOTAL].m, 0, zero));
            for (phase = 0; phase < 4; phase++) {
                size_t j, nj = phase == 0 ? 1 : nlv;
                DG__ARG(kf, 7, phase);
                for (j = 0; j < nj; j++) {   /* phases 1 and 3 bottom-up, 2 top-down */
                    size_t at = phase == 2 ? j : nlv - 1 - j;
                    cl_uint lo = phase == 0 ? 0 : lv[at], hi = phase == 0 ? (cl_uint)nc : lv[at + 1];
                    DG__ARG(kf, 5, lo); DG__ARG(kf, 6, hi);
                    DG__TRY(dg__launch(g, kf, hi - lo, d->wg));
                }
            }
        }
    }
    if (nc) {
        DG__CL(clEnqueueReadBuffer(d->queue, lab.m, CL_FALSE, 0, nc * ns * 8, R->lab, 0, NULL, NULL));
        DG__CL(clEnqueueReadBuffer(d->queue, sig.m, CL_FALSE, 0, nc * 8 * DG_REACH_SIG_WORDS, R->sig, 0, NULL, NULL));
        DG__CL(clEnqueueReadBuffer(d->queue, tree.m, CL_TRUE, 0, nc * 16, R->tree, 0, NULL, NULL));
    }
done:
    for (i = 0; i < B_N; i++) dg__buf_free(d, &b[i]);
    dg__buf_free(d, &lab); dg__buf_free(d, &tree); dg__buf_free(d, &sig);
    dg__free(g, order); dg__free(g, lv);
    return st;
}

/* Slot 2d of each component: (depth, height), the longest paths from a root and to a sink.
   An arc c -> c' has depth(c) < depth(c') and height(c) > height(c'), so c reaches c' only
   if [depth, height] of c' lies in c's, as for the intervals (compared loosely, it holds
   within a component too). Tarjan numbers the components children first. */
static void dg__reach_levels(dg__reach *R, const uint32_t *crow, const int32_t *ccol) {
    const size_t ns = DG__RS(R), nc = R->ncomp;
    int32_t *lv = R->lab + 2 * (size_t)(2 * R->d);   /* component c: lv[2*ns*c] depth, +1 height */
    size_t c;
    uint32_t e;
    for (c = 0; c < nc; c++) {
        int32_t h = 0;
        lv[2 * ns * c] = 0;
        for (e = crow[c]; e < crow[c + 1]; e++)
            if (lv[2 * ns * (size_t)ccol[e] + 1] + 1 > h) h = lv[2 * ns * (size_t)ccol[e] + 1] + 1;
        lv[2 * ns * c + 1] = h;
    }
    for (c = nc; c-- > 0;)
        for (e = crow[c]; e < crow[c + 1]; e++)
            if (lv[2 * ns * (size_t)ccol[e]] < lv[2 * ns * c] + 1) lv[2 * ns * (size_t)ccol[e]] = lv[2 * ns * c] + 1;
}

/* Hubs: the DG_REACH_HUBS components with the most descendants x ancestors in the spanning
   forests of traversal 0 (tree subtree sizes: lower bounds of both; the intervals' widths
   picked far worse hubs for DFS labels: bench/NOTES.md, "reachability"). Every component records
   which hubs reach it and which it reaches (R->hub): if a hub reaches s but not t, or t
   reaches a hub s does not, s cannot reach t (true of every graph the removals leave, too);
   if s reaches a hub that reaches t, s reaches t. Arcs run from higher to lower component
   numbers (Tarjan), so one pass down and one up, O(components + arcs). */
static dg_status dg__reach_hubs(dg_graph *g, dg__reach *R) {
    const size_t nc = R->ncomp, K = DG_REACH_HUBS < 64 ? DG_REACH_HUBS : 64;
    int32_t top[64];
    double score[64];
    size_t c, nh = 0, i;
    uint32_t e;
    if (!(R->hub = (uint64_t *)dg__alloc(g, (nc ? nc : 1) * 2 * sizeof(uint64_t)))) return dg__oom(g, "dg_reach: hubs");
    memset(R->hub, 0, (nc ? nc : 1) * 2 * sizeof(uint64_t));
    for (c = 0; c < (K > 0 ? nc : 0); c++) {   /* the K best: a min-heap on score */
        const int32_t *tr = R->tree + 4 * c;
        const double sc = ((double)tr[1] - tr[0] + 1.0) * ((double)tr[3] - tr[2] + 1.0);
        size_t at;
        if (nh < K) {   /* sift up from a new leaf */
            for (at = nh++; at && score[(at - 1) / 2] > sc; at = (at - 1) / 2) {
                score[at] = score[(at - 1) / 2];
                top[at] = top[(at - 1) / 2];
            }
        } else if (sc > score[0]) {
            at = 0;
            for (;;) {   /* sift the new entry down from the root */
                size_t k = 2 * at + 1;
                if (k >= nh) break;
                if (k + 1 < nh && score[k + 1] < score[k]) k++;
                if (score[k] >= sc) break;
                score[at] = score[k]; top[at] = top[k]; at = k;
            }
        } else continue;
        score[at] = sc; top[at] = (int32_t)c;
    }
    for (i = 0; i < nh; i++) R->hub[2 * (size_t)top[i]] = R->hub[2 * (size_t)top[i] + 1] = (uint64_t)1 << i;
    for (c = nc; c-- > 0;)   /* sources first: what reaches c is complete before it passes on */
        for (e = R->crow[c]; e < R->crow[c + 1]; e++) R->hub[2 * (size_t)R->ccol[e]] |= R->hub[2 * c];
    for (c = 0; c < nc; c++)   /* sinks first */
        for (e = R->crow[c]; e < R->crow[c + 1]; e++) R->hub[2 * c + 1] |= R->hub[2 * (size_t)R->ccol[e] + 1];
    return DG_OK;
}

/* Signatures of a host build (kernels/00_shared.h, 60_reach.cl; a device build makes them in
   dg_reach_forest): component c's own bit from its rank in traversal 0 (tree[4c + 1], 1..C),
   ORed into its descendant signature from its successors (sinks first) and into its ancestor
   signature from its predecessors (sources first): arcs run from higher to lower component
   numbers, as for the hubs. */
static dg_status dg__reach_sigs(dg_graph *g, dg__reach *R) {
    const size_t nc = R->ncomp, SW = DG_REACH_SIG_WORDS, bits = 32 * SW;
    size_t c, w;
    uint32_t e, *S;
    if (!(S = R->sig = (uint32_t *)dg__alloc(g, (nc ? nc : 1) * 2 * SW * sizeof(uint32_t))))
        return dg__oom(g, "dg_reach: signatures");
    memset(S, 0, (nc ? nc : 1) * 2 * SW * sizeof(uint32_t));
    for (c = 0; c < nc; c++) {
        const uint64_t r = (uint64_t)(R->tree[4 * c + 1] - 1);
        const size_t b = (size_t)(r * DG_REACH_SIG_SPREAD * bits / nc % bits);
        S[2 * SW * c + b / 32] = S[2 * SW * c + SW + b / 32] = 1u << (b % 32);
    }
    for (c = 0; c < nc; c++)   /* sinks first: descendants */
        for (e = R->crow[c]; e < R->crow[c + 1]; e++) {
            const uint32_t *from = S + 2 * SW * (size_t)R->ccol[e];
            for (w = 0; w < SW; w++) S[2 * SW * c + w] |= from[w];
        }
    for (c = nc; c-- > 0;)     /* sources first: ancestors */
        for (e = R->crow[c]; e < R->crow[c + 1]; e++) {
            uint32_t *to = S + 2 * SW * (size_t)R->ccol[e] + SW;
            for (w = 0; w < SW; w++) to[w] |= S[2 * SW * c + SW + w];
        }
    return DG_OK;
}

/* The condensation's components from dg_scc on a GPU: the labels (smallest ids) numbered so
   that arcs run from higher to lower numbers, as Tarjan's are (sinks first: Kahn's order
   over the reversed condensation), in O(vertices + arcs) on the host. That numbering costs
   about what Tarjan does where every component is one vertex (a DAG: three passes over the
   arcs to Tarjan's one), so there (*all_trivial set, automatic mode) the caller runs
   Tarjan; elsewhere dg_scc saves most of it (bench/NOTES.md). On a CPU device Tarjan is
   faster: dg__reach_scc_device 0 (automatic) uses dg_scc on a GPU for DG__REACH_SCC_DEV_MIN
   ids or more; 1 always, -1 never (tests, benchmarks). */
#define DG__REACH_SCC_DEV_MIN 65536
#ifndef DG__REACH_SCC_DEVICE
#define DG__REACH_SCC_DEVICE 0            /* (a benchmark's "before": -1) */
#endif
static int dg__reach_scc_device = DG__REACH_SCC_DEVICE;
static dg_status dg__reach_scc_dev(dg_graph *g, size_t n, const uint32_t *row, const int32_t *col,
                                   int32_t *comp, size_t *ncomp, int *all_trivial) {
    int32_t *tmp = NULL, *rcol = NULL, *q = NULL;
    uint32_t *outd = NULL, *rrow = NULL;
    size_t nc = 0, v, i, head = 0, tail = 0, next = 0;
    dg_status st = DG_OK;
    DG__TRY(dg_scc(g, comp, &nc));
    *all_trivial = nc == g->nverts;
    if (*all_trivial && dg__reach_scc_device == 0) return DG_OK;
    nc = 0;
    tmp = (int32_t *)dg__alloc(g, (n ? n : 1) * sizeof(int32_t));
    if (!tmp) { st = dg__oom(g, "dg_reach: components"); goto done; }
    for (v = 0; v < n; v++) if (comp[v] == (int32_t)v) tmp[v] = (int32_t)nc++;     /* a component's smallest id */
    for (v = 0; v < n; v++) if (comp[v] >= 0) comp[v] = tmp[comp[v]];
    outd = (uint32_t *)dg__alloc(g, (nc + 1) * sizeof(uint32_t));
    rrow = (uint32_t *)dg__alloc(g, (nc + 2) * sizeof(uint32_t));
    q = (int32_t *)dg__alloc(g, (nc ? nc : 1) * sizeof(int32_t));
    if (!outd || !rrow || !q) { st = dg__oom(g, "dg_reach: components"); goto done; }
    memset(outd, 0, (nc + 1) * sizeof(uint32_t));
    memset(rrow, 0, (nc + 2) * sizeof(uint32_t));
    for (v = 0; v < n; v++)                       /* arcs between components: out-degrees, in-lists */
        for (i = row[v]; i < row[v + 1]; i++)
            if (comp[col[i]] != comp[v]) { outd[comp[v]]++; rrow[comp[col[i]] + 2]++; }
    for (i = 0; i < nc; i++) rrow[i + 2] += rrow[i + 1];
    if (!(rcol = (int32_t *)dg__alloc(g, (rrow[nc + 1] ? rrow[nc + 1] : 1) * sizeof(int32_t)))) {
        st = dg__oom(g, "dg_reach: components");
        goto done;
    }
    for (v = 0; v < n; v++)
        for (i = row[v]; i < row[v + 1]; i++)
            if (comp[col[i]] != comp[v]) rcol[rrow[comp[col[i]] + 1]++] = comp[v];
    for (i = 0; i < nc; i++) if (!outd[i]) q[tail++] = (int32_t)i;
    while (head < tail) {                         /* a component is numbered after all it reaches */
        int32_t c = q[head++];
        tmp[c] = (int32_t)next++;
        for (i = rrow[c]; i < rrow[c + 1]; i++) if (--outd[rcol[i]] == 0) q[tail++] = rcol[i];
    }
    if (next != nc) { st = dg__fail(g, DG_ERR_OPENCL, "dg_reach: the device's components form a cycle"); goto done; }
    for (v = 0; v < n; v++) if (comp[v] >= 0) comp[v] = tmp[comp[v]];
    *ncomp = nc;
done:
    dg__free(g, tmp); dg__free(g, rcol); dg__free(g, q); dg__free(g, outd); dg__free(g, rrow);
    return st;
}

/* Builds the index into g->reach (all or nothing: the old index stays on failure). */
static dg_status dg__reach_build(dg_graph *g, uint32_t d, uint64_t seed, dg_reach_build where,
                                 double *scc_ms) {
    dg__reach R;
    uint32_t *row = NULL, *crow, *rrow = NULL;
    int32_t *col = NULL, *ccol, *rcol = NULL;
    size_t n = g->id_bound, v, i, m = 0;
    dg_status st = DG_OK;
    int dev = dg__reach_scc_device > 0 || (dg__reach_scc_device == 0 && !g->dev->cpu && n >= DG__REACH_SCC_DEV_MIN);
    int trivial = 0;
    double t0 = dg__now_ms();
    memset(&R, 0, sizeof R);
    R.d = d; R.seed = seed; R.built_on = where; R.nbound = n;
    R.ver_ins = g->ver_ins; R.ver_del = g->ver_del;
    R.build_no = (g->reach ? g->reach->build_no : 0) + 1;
    if (!(R.comp = (int32_t *)dg__alloc(g, (n ? n : 1) * sizeof(int32_t)))) { st = dg__oom(g, "dg_reach"); goto done; }
    DG__TRY(dg__host_csr(g, n, &row, &col));
    if (dev) DG__TRY(dg__reach_scc_dev(g, n, row, col, R.comp, &R.ncomp, &trivial));
    if (!dev || (trivial && dg__reach_scc_device == 0)) DG__TRY(dg__reach_scc(g, n, row, col, R.comp, &R.ncomp));
    *scc_ms = dg__now_ms() - t0;
    /* the DAG of components (parallel arcs kept: they cost a little, dedup costs more) */
    if (!(crow = R.crow = (uint32_t *)dg__alloc(g, (R.ncomp + 1) * sizeof(uint32_t)))) { st = dg__oom(g, "dg_reach"); goto done; }
    memset(crow, 0, (R.ncomp + 1) * sizeof(uint32_t));
    for (v = 0; v < n; v++)
        for (i = row[v]; i < row[v + 1]; i++)
            if (R.comp[col[i]] != R.comp[v]) { crow[R.comp[v] + 1]++; m++; }
    for (i = 0; i < R.ncomp; i++) crow[i + 1] += crow[i];
    if (!(ccol = R.ccol = (int32_t *)dg__alloc(g, (m ? m : 1) * sizeof(int32_t)))) { st = dg__oom(g, "dg_reach"); goto done; }
    for (v = 0; v < n; v++)
        for (i = row[v]; i < row[v + 1]; i++)
            if (R.comp[col[i]] != R.comp[v]) ccol[crow[R.comp[v]]++] = R.comp[col[i]];
    for (i = R.ncomp; i > 0; i--) crow[i] = crow[i - 1];
    crow[0] = 0;
    dg__free(g, row); dg__free(g, col); row = NULL; col = NULL;
    R.lab = (int32_t *)dg__alloc(g, (R.ncomp ? R.ncomp : 1) * DG__RS(&R) * 2 * sizeof(int32_t));
    R.tree = (int32_t *)dg__alloc(g, (R.ncomp ? R.ncomp : 1) * 4 * sizeof(int32_t));
    if (!R.lab || !R.tree) { st = dg__oom(g, "dg_reach: labels"); goto done; }
    DG__TRY(dg__csr_reverse(g, R.ncomp, crow, ccol, &rrow, &rcol));
    dg__reach_levels(&R, crow, ccol);
    if (where == DG_REACH_BUILD_AUTO) {
        /* the device pays ~6d launches per level of the DAG (~15 us each, kernel included) and
           ~1.2e-5 ms per component and arc and traversal; the host ~2d visits per component
           and arc, ~5x dearer once the labels outgrow the caches. Fitted to the H100 builds
           of bench/NOTES.md ("reachability": 1M-vertex DAGs of depth 53 and 109, the citation DAG
           of depth 6464). The host's DFS labels search faster (deeper trees, larger "yes"
           intervals): the device must be twice as fast to be chosen. */
        size_t depth = 0, ns = DG__RS(&R);
        double dev_ms, host_ms;
        for (i = 0; i < R.ncomp; i++)
            if ((size_t)R.lab[2 * (i * ns + 2 * d)] + 1 > depth) depth = (size_t)R.lab[2 * (i * ns + 2 * d)] + 1;
        dev_ms = 10.0 + (double)depth * 6.0 * d * 0.015 + (double)(R.ncomp + m) * 2.0 * d * 1.2e-5;
        host_ms = (double)(R.ncomp + m) * 2.0 * d * (R.ncomp * ns * 8 > ((size_t)16 << 20) ? 7e-5 : 1.5e-5);
        /* a CPU device (PoCL) runs the same passes on the host's cores, with launch costs */
        where = 2.0 * dev_ms < host_ms && !g->dev->pocl ? DG_REACH_BUILD_DEVICE : DG_REACH_BUILD_HOST;
        R.built_on = where;
    }
    if (where == DG_REACH_BUILD_DEVICE) {
        DG__TRY(dg__reach_labels_dev(g, &R, R.ncomp, crow, ccol, rrow, rcol, seed));
    } else {
        uint64_t rs = seed;
        DG__TRY(dg__reach_labels(g, &R, R.ncomp, crow, ccol, 0, rs));
        DG__TRY(dg__reach_labels(g, &R, R.ncomp, rrow, rcol, R.d, rs ^ 0x5bd1e995ull));
    }
    DG__TRY(dg__reach_hubs(g, &R));
    if (where != DG_REACH_BUILD_DEVICE) DG__TRY(dg__reach_sigs(g, &R));   /* (the device's come with its labels) */
    if (!g->reach) {
        if (!(g->reach = (dg__reach *)dg__alloc(g, sizeof(dg__reach)))) { st = dg__oom(g, "dg_reach"); goto done; }
        memset(g->reach, 0, sizeof *g->reach);
    }
    dg__reach_drop(g, g->reach);
    *g->reach = R;
    memset(&R, 0, sizeof R);
done:
    dg__free(g, row); dg__free(g, col); dg__free(g, rrow); dg__free(g, rcol);
    dg__reach_drop(g, &R);
    return st;
}

/* Sends the index to the device (once per build). */
static dg_status dg__reach_upload(dg_graph *g) {
    dg__reach_state *rs = (dg__reach_state *)g->dev->mod[DG__MOD_REACH].state;
    dg__dev *d = g->dev;
    dg__reach *R = g->reach;
    dg_status st = DG_OK;
    size_t nc = R->ncomp ? R->ncomp : 1;
    if (rs->rc_index == R->build_no) return DG_OK;
    DG__TRY(dg__buf_fit(g, &rs->b.rc_comp, (R->nbound ? R->nbound : 1) * 4));
    DG__TRY(dg__buf_fit(g, &rs->b.rc_lab, nc * DG__RS(R) * 8));
    DG__TRY(dg__buf_fit(g, &rs->b.rc_tree, nc * 16));
    DG__TRY(dg__buf_fit(g, &rs->b.rc_hub, nc * 16));
    DG__TRY(dg__buf_fit(g, &rs->b.rc_sig, nc * 8 * DG_REACH_SIG_WORDS));
    DG__TRY(dg__buf_fit(g, &rs->b.rc_crow, (R->ncomp + 1) * 4));
    DG__TRY(dg__buf_fit(g, &rs->b.rc_ccol, (R->crow[R->ncomp] ? R->crow[R->ncomp] : 1) * 4));
    DG__CL(clEnqueueWriteBuffer(d->queue, rs->b.rc_crow.m, CL_FALSE, 0, (R->ncomp + 1) * 4, R->crow, 0, NULL, NULL));
    if (R->crow[R->ncomp])
        DG__CL(clEnqueueWriteBuffer(d->queue, rs->b.rc_ccol.m, CL_FALSE, 0, (size_t)R->crow[R->ncomp] * 4, R->ccol, 0, NULL, NULL));
    if (R->nbound) DG__CL(clEnqueueWriteBuffer(d->queue, rs->b.rc_comp.m, CL_FALSE, 0, R->nbound * 4, R->comp, 0, NULL, NULL));
    if (R->ncomp) {
        DG__CL(clEnqueueWriteBuffer(d->queue, rs->b.rc_lab.m, CL_FALSE, 0, R->ncomp * DG__RS(R) * 8, R->lab, 0, NULL, NULL));
        DG__CL(clEnqueueWriteBuffer(d->queue, rs->b.rc_tree.m, CL_FALSE, 0, R->ncomp * 16, R->tree, 0, NULL, NULL));
        DG__CL(clEnqueueWriteBuffer(d->queue, rs->b.rc_hub.m, CL_FALSE, 0, R->ncomp * 16, R->hub, 0, NULL, NULL));
        DG__CL(clEnqueueWriteBuffer(d->queue, rs->b.rc_sig.m, CL_FALSE, 0, R->ncomp * 8 * DG_REACH_SIG_WORDS, R->sig, 0, NULL, NULL));
    }
    DG__CL(clFinish(d->queue));
    rs->rc_index = R->build_no;
done:
    return st;
}

#define DG__REACH_CHUNK ((size_t)1 << 22)   /* queries sent to the device at a time */

/* Searches for the nu undecided queries listed in rc_und: batches of 32 x W, bit-parallel
   (kernels/60_reach.cl), on the DAG of components while the index is exact (dag), else on the
   pages. W: as many words as the queries need, up to DG__REACH_MAX_WORDS, while the six n x W
   arrays (n: components or vertex ids) fit the search memory (opt.search_mb, default a sixth
   of a GPU's memory, a sixteenth of a CPU device's up to 3 GiB) and each fits the largest
   allocation the device allows and 2 GiB. Larger W, fewer batches: every batch costs a few dozen
   levels of launches whatever its size (bench/NOTES.md, "reachability": 72 -> 181 M queries/s on
   a 1M-component DAG going from W = 256 to 512). */
#ifndef DG__REACH_MAX_WORDS
#define DG__REACH_MAX_WORDS 1024
#endif
#ifndef DG__REACH_ARRAY_MAX   /* bytes per array: larger ones failed on NVIDIA (bench/NOTES.md) */
#define DG__REACH_ARRAY_MAX ((cl_ulong)1 << 31)
#endif
/* *wmax: the most words per search vertex the search memory allows (DG_ERR_LIMIT if none). */
static dg_status dg__reach_wmax(dg_graph *g, int dag, size_t search_mb, size_t *wmax) {
    dg__dev *d = g->dev;
    size_t n = dag ? g->reach->ncomp : g->id_bound;
    cl_ulong budget = d->cpu ? d->global_mem / 16 : d->global_mem / 6, cap;
    if (d->cpu && budget > ((cl_ulong)3 << 30)) budget = (cl_ulong)3 << 30;
    if (search_mb) budget = (cl_ulong)(search_mb < ((size_t)1 << 30) ? search_mb : (size_t)1 << 30) << 20;
    cap = budget / 6 < d->max_alloc ? budget / 6 : d->max_alloc;
    if (cap > DG__REACH_ARRAY_MAX) cap = DG__REACH_ARRAY_MAX;
    if (n < 1) n = 1;
    *wmax = cap / (4 * (cl_ulong)n) < DG__REACH_MAX_WORDS ? (size_t)(cap / (4 * (cl_ulong)n)) : DG__REACH_MAX_WORDS;
    if (n * *wmax >= 0xffffffffu) *wmax = 0xfffffffeu / n;
    if (*wmax < 1)
        return dg__fail(g, DG_ERR_LIMIT, "dg_reach: the search memory (%llu MiB) cannot hold a word per %s (%zu)%s",
                        (unsigned long long)(budget >> 20), dag ? "component" : "vertex id", n,
                        search_mb ? "; raise opt.search_mb" : "");
    return DG_OK;
}

static dg_status dg__reach_search(dg_graph *g, uint32_t nu, int dag, size_t wmax, cl_uint use_sig,
                                  dg_reach_stats *S) {
    dg__reach_state *rs = (dg__reach_state *)g->dev->mod[DG__MOD_REACH].state;
    dg__dev *d = g->dev;
    dg__reach *R = g->reach;
    dg_status st = DG_OK;
    cl_kernel ki = NULL, ke = NULL, kf = NULL;
    size_t n = dag ? R->ncomp : g->id_bound, W, words, gsz = d->groups * d->wg;
    cl_uint off, uW, ring = DG_REACH_RING, ud = R->d, udag = (cl_uint)dag, a;
    if (n < 1) n = 1;
    W = ((size_t)nu + 31) / 32;
    if (W > wmax) W = wmax;
    words = n * W;
    uW = (cl_uint)W;
    DG__TRY(dg__buf_fit(g, &rs->b.rc_vis, words * 4)); DG__TRY(dg__buf_fit(g, &rs->b.rc_touch, words * 4));
    DG__TRY(dg__buf_fit(g, &rs->b.rc_f[0], words * 4)); DG__TRY(dg__buf_fit(g, &rs->b.rc_f[1], words * 4));
    DG__TRY(dg__buf_fit(g, &rs->b.rc_q[0], words * 4)); DG__TRY(dg__buf_fit(g, &rs->b.rc_q[1], words * 4));
    DG__TRY(dg__buf_fit(g, &rs->b.rc_done, W * 4));
    DG__TRY(dg__buf_fit(g, &rs->b.rc_bq, W * 32 * 32));
    DG__TRY(dg__buf_fit(g, &rs->b.rc_found, W * 32));
    DG__TRY(dg__buf_fit(g, &rs->b.rc_cnt, (DG_REACH_RING + 2) * 4));
    DG__TRY(dg__fill_bytes(g, rs->b.rc_cnt.m, 0, (DG_REACH_RING + DG_RC_VISITED) * 4, 4));
    if (rs->rc_words < words) {   /* zero once; every batch leaves them zero */
        DG__TRY(dg__fill_bytes(g, rs->b.rc_vis.m, 0, 0, words * 4));
        DG__TRY(dg__fill_bytes(g, rs->b.rc_f[0].m, 0, 0, words * 4));
        DG__TRY(dg__fill_bytes(g, rs->b.rc_f[1].m, 0, 0, words * 4));
        rs->rc_words = words;
    }
    DG__TRY(dg__fill_bytes(g, rs->b.rc_found.m, 0, 0, W * 32));
    DG__TRY(dg__kernel(g, DG__K_REACH_INIT, 0, &ki));
    DG__TRY(dg__kernel(g, dag ? (use_sig ? DG__K_REACH_EXPAND_DAG_SIG : DG__K_REACH_EXPAND_DAG)
                              : (use_sig ? DG__K_REACH_EXPAND_SIG : DG__K_REACH_EXPAND), 0, &ke));
    DG__TRY(dg__kernel(g, DG__K_REACH_FINISH, 0, &kf));
    DG__ARG(ki, 1, rs->b.rc_und.m); DG__ARG(ki, 3, rs->b.rc_qs.m); DG__ARG(ki, 4, rs->b.rc_qt.m);
    DG__ARG(ki, 5, rs->b.rc_comp.m); DG__ARG(ki, 6, rs->b.rc_tree.m); DG__ARG(ki, 7, udag);
    DG__ARG(ki, 8, rs->b.rc_bq.m); DG__ARG(ki, 9, uW); DG__ARG(ki, 10, rs->b.rc_vis.m);
    DG__ARG(ki, 11, rs->b.rc_f[0].m); DG__ARG(ki, 12, rs->b.rc_q[0].m); DG__ARG(ki, 13, rs->b.rc_cnt.m);
    DG__ARG(ki, 14, ring); DG__ARG(ki, 15, rs->b.rc_touch.m); DG__ARG(ki, 16, rs->b.rc_hub.m);
    if (dag) { DG__ARG(ke, 0, rs->b.rc_crow.m); DG__ARG(ke, 1, rs->b.rc_ccol.m); a = 2; }
    else { DG__TRY(dg__adj_args(g, ke, 0, 0, 0)); a = 5; }
    /* the search arguments after the graph's: W qin qout cnt ring L front next vis done bq
       found comp tree lab d touched hub sig */
    DG__ARG(ke, a + 0, uW); DG__ARG(ke, a + 3, rs->b.rc_cnt.m); DG__ARG(ke, a + 4, ring);
    DG__ARG(ke, a + 8, rs->b.rc_vis.m); DG__ARG(ke, a + 9, rs->b.rc_done.m); DG__ARG(ke, a + 10, rs->b.rc_bq.m);
    DG__ARG(ke, a + 11, rs->b.rc_found.m); DG__ARG(ke, a + 12, rs->b.rc_comp.m); DG__ARG(ke, a + 13, rs->b.rc_tree.m);
    DG__ARG(ke, a + 14, rs->b.rc_lab.m); DG__ARG(ke, a + 15, ud); DG__ARG(ke, a + 16, rs->b.rc_touch.m);
    DG__ARG(ke, a + 17, rs->b.rc_hub.m); DG__ARG(ke, a + 18, rs->b.rc_sig.m);
    DG__ARG(kf, 3, rs->b.rc_found.m); DG__ARG(kf, 4, rs->b.rc_res.m); DG__ARG(kf, 5, rs->b.rc_vis.m);
    DG__ARG(kf, 6, rs->b.rc_touch.m); DG__ARG(kf, 7, rs->b.rc_cnt.m); DG__ARG(kf, 8, ring);
    DG__ARG(kf, 1, rs->b.rc_und.m);
    for (off = 0; off < nu; off += (cl_uint)(32 * W)) {
        cl_uint nb = nu - off < 32 * W ? nu - off : (cl_uint)(32 * W), L = 0, k = 4;
        DG__TRY(dg__fill_bytes(g, rs->b.rc_done.m, 0, 0, W * 4));
        DG__TRY(dg__fill_bytes(g, rs->b.rc_cnt.m, 0, 0, (DG_REACH_RING + 1) * 4));
        DG__ARG(ki, 0, nb); DG__ARG(ki, 2, off);
        DG__TRY(dg__launch(g, ki, nb, d->wg));
        for (;;) {   /* k levels per read-back: 4, 8, 16, 32 */
            cl_uint j;
            uint32_t left = 0;
            for (j = 0; j < k; j++, L++) {
                DG__ARG(ke, a + 1, rs->b.rc_q[L & 1].m); DG__ARG(ke, a + 2, rs->b.rc_q[(L + 1) & 1].m);
                DG__ARG(ke, a + 5, L);
                DG__ARG(ke, a + 6, rs->b.rc_f[L & 1].m); DG__ARG(ke, a + 7, rs->b.rc_f[(L + 1) & 1].m);
                DG__TRY(dg__launch(g, ke, gsz, d->wg));
            }
            DG__TRY(dg__read_u32(g, rs->b.rc_cnt.m, L % DG_REACH_RING, &left));
            if (!left) break;
            if (L > n + 32) {   /* a search has at most n levels: the device state is broken */
                st = dg__fail(g, DG_ERR_CORRUPT, "dg_reach: the search ran past %zu levels (device state broken)", n);
                goto done;
            }
            if (k < 32) k *= 2;
        }
        S->levels += L;
        S->batches++;
        DG__ARG(kf, 0, nb); DG__ARG(kf, 2, off);
        DG__TRY(dg__launch(g, kf, gsz, d->wg));
    }
    {
        uint32_t vis = 0;
        DG__TRY(dg__read_u32(g, rs->b.rc_cnt.m, DG_REACH_RING + DG_RC_VISITED, &vis));
        S->visited += vis;
    }
done:
    if (st != DG_OK && d) rs->rc_words = 0;   /* state unknown: zero again next time */
    return st;
}

#define DG__REACH_SEED 0x6772616964796e67ull   /* the seed of a first build when none is given */
/* The search's signature test (dg_reach_ex): 0 where the labels kernel found them useful (the
   default), 1 always, -1 never (tests: every search kernel runs). */
static int dg__reach_sig_search = 0;

/* Fills in the defaults of opt (manual section 15), the one place they are decided: labels and
   seed keep the current index's, else DG_REACH_LABELS and DG__REACH_SEED; search_mb is sized
   against the device by dg__reach_wmax. */
static void dg__reach_defaults(const dg_graph *g, dg_reach_options *o) {
    const dg__reach *R = g->reach;
    if (o->labels == 0)
        o->labels = R ? R->d : DG_REACH_LABELS;
    if (o->seed == 0)
        o->seed = R ? R->seed : DG__REACH_SEED;
}

/* Queries from..to-1 name live vertices (q: their sources or their destinations). */
static dg_status dg__reach_check(dg_graph *g, const dg_vertex *q, size_t from, size_t to, const char *what) {
    size_t i;
    for (i = from; i < to; i++)
        if (q[i] < 0 || !dg__alive(g, q[i]))
            return dg__fail(g, q[i] < 0 ? DG_ERR_INVALID_ARGUMENT : DG_ERR_NOT_FOUND,
                            "dg_reach: query %zu: %s vertex %d does not exist%s", i, what, (int)q[i],
                            q[i] >= 0 && (size_t)q[i] < g->id_bound ? " (removed)" : "");
    return DG_OK;
}

DG_API dg_status dg_reach_ex(dg_graph *g, const dg_vertex *src, const dg_vertex *dst, size_t n,
                             uint8_t *reachable, const dg_reach_options *opt) {
    dg__reach_state *rs;
    dg_reach_options o;
    dg_reach_stats S;
    dg__dev *d;
    dg__reach *R;
    dg_status st = DG_OK;
    double t0 = dg__now_ms(), scc_ms = 0, dev_ms = 0;
    size_t at, wmax = 0;
    cl_uint exact;
    cl_kernel kl = NULL;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if (opt) o = *opt; else memset(&o, 0, sizeof o);
    memset(&S, 0, sizeof S);
    if (n && (!src || !dst || !reachable))
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_reach: NULL query or result array");
    if (o.labels > 8) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_reach: labels must be 0..8 (got %u)", (unsigned)o.labels);
    if (o.build != DG_REACH_BUILD_AUTO && o.build != DG_REACH_BUILD_HOST && o.build != DG_REACH_BUILD_DEVICE)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_reach: unknown build option %d", (int)o.build);
    if (n > DG__REACH_CHUNK) {   /* else the labels kernel checks them, before any is answered */
        if ((st = dg__reach_check(g, src, 0, n, "source")) != DG_OK) return st;
        if ((st = dg__reach_check(g, dst, 0, n, "destination")) != DG_OK) return st;
    }
    if (n == 0 && !o.rebuild) {   /* nothing to answer, nothing asked to build */
        if (o.stats) {
            memset(o.stats, 0, sizeof *o.stats);
            if (g->reach) {
                o.stats->built_on = g->reach->built_on; o.stats->labels = g->reach->d;
                o.stats->components = g->reach->ncomp;
                o.stats->filter_only = g->reach->ver_del != g->ver_del;
            }
        }
        return DG_OK;
    }
    if (g->id_bound > 0x7fffffffu) return dg__fail(g, DG_ERR_LIMIT, "dg_reach: too many vertex ids");
    if ((st = dg__sync(g)) != DG_OK) return st;
    d = g->dev;
    if (!(rs = DG__STATE(g, DG__MOD_REACH, dg__reach_state))) return DG_ERR_OUT_OF_MEMORY;
    dg__reach_defaults(g, &o);
    R = g->reach;
    if (!R || o.rebuild || R->ver_ins != g->ver_ins || R->d != o.labels || o.seed != R->seed ||
        (o.build != DG_REACH_BUILD_AUTO && o.build != R->built_on)) {
        double tb = dg__now_ms();
        if ((st = dg__reach_build(g, o.labels, o.seed, o.build, &scc_ms)) != DG_OK) return st;
        S.index_built = 1;
        S.build_ms = dg__now_ms() - tb;
        S.scc_ms = scc_ms;
    }
    R = g->reach;
    if ((st = dg__reach_upload(g)) != DG_OK) return st;
    exact = R->ver_del == g->ver_del;
    if (n && (st = dg__reach_wmax(g, (int)exact, o.search_mb, &wmax)) != DG_OK) return st;
    dg__timing_reset(d);
    d->timed = o.stats != NULL;
    DG__TRY(dg__kernel(g, DG__K_REACH_LABELS, 0, &kl));
    for (at = 0; at < n; at += DG__REACH_CHUNK) {
        cl_uint nq = (cl_uint)(n - at < DG__REACH_CHUNK ? n - at : DG__REACH_CHUNK), ud = R->d;
        uint32_t cnt[DG_RL_WORDS];
        cl_uint nv = (cl_uint)g->id_bound;
        size_t i;
        DG__TRY(dg__buf_fit(g, &rs->b.rc_qs, (size_t)nq * 4)); DG__TRY(dg__buf_fit(g, &rs->b.rc_qt, (size_t)nq * 4));
        DG__TRY(dg__buf_fit(g, &rs->b.rc_res, nq)); DG__TRY(dg__buf_fit(g, &rs->b.rc_und, (size_t)nq * 4));
        DG__TRY(dg__buf_fit(g, &rs->b.rc_cnt, (DG_REACH_RING + 2) * 4));
        DG__CL(clEnqueueWriteBuffer(d->queue, rs->b.rc_qs.m, CL_FALSE, 0, (size_t)nq * 4, src + at, 0, NULL, NULL));
        DG__CL(clEnqueueWriteBuffer(d->queue, rs->b.rc_qt.m, CL_FALSE, 0, (size_t)nq * 4, dst + at, 0, NULL, NULL));
        DG__TRY(dg__fill_bytes(g, rs->b.rc_cnt.m, 0, 0, DG_RL_WORDS * 4));
        DG__TRY(dg__fill_bytes(g, rs->b.rc_cnt.m, 0xff, DG_RL_BAD * 4, 4));
        DG__TRY(dg__args(g, kl, DG__A(nq), DG__A(rs->b.rc_qs.m), DG__A(rs->b.rc_qt.m),
                               DG__A(rs->b.rc_comp.m), DG__A(rs->b.rc_lab.m),
                               DG__A(rs->b.rc_tree.m), DG__A(ud), DG__A(exact),
                               DG__A(rs->b.rc_res.m), DG__A(rs->b.rc_und.m), DG__A(rs->b.rc_cnt.m),
                               DG__A(d->dir.m), DG__A(nv), DG__A(rs->b.rc_hub.m),
                               DG__A(rs->b.rc_sig.m), DG__END));
        DG__TRY(dg__launch(g, kl, nq, d->wg));
        DG__CL(clEnqueueReadBuffer(d->queue, rs->b.rc_cnt.m, CL_TRUE, 0, sizeof cnt, cnt, 0, NULL, NULL));
        if (cnt[DG_RL_BAD] != 0xffffffffu) {   /* name the first bad query */
            i = at + cnt[DG_RL_BAD];
            if ((st = dg__reach_check(g, src, i, i + 1, "source")) == DG_OK &&
                (st = dg__reach_check(g, dst, i, i + 1, "destination")) == DG_OK)
                st = dg__fail(g, DG_ERR_CORRUPT, "dg_reach: query %zu: the device saw a missing vertex", i);
            goto done;
        }
        S.by_labels += nq - cnt[DG_RL_UNDECIDED];
        S.by_hubs += cnt[DG_RL_BY_HUBS];
        S.by_signatures += cnt[DG_RL_BY_SIGS];
        S.searched += cnt[DG_RL_UNDECIDED];
        /* the search tests the signatures (its kernels with them) where they decided at least
           one query for every 16 left to it beyond what the intervals did (on a citation DAG,
           whose signatures fill up, testing them cost the search 15-20%: bench/NOTES.md) */
        if (cnt[DG_RL_UNDECIDED])
            DG__TRY(dg__reach_search(g, cnt[DG_RL_UNDECIDED], (int)exact, wmax,
                                     dg__reach_sig_search ? (cl_uint)(dg__reach_sig_search > 0)
                                     : (cl_uint)((uint64_t)cnt[DG_RL_BY_SIGS] * 16 >= cnt[DG_RL_UNDECIDED]),
                                     &S));
        DG__CL(clEnqueueReadBuffer(d->queue, rs->b.rc_res.m, CL_TRUE, 0, nq, reachable + at, 0, NULL, NULL));
        for (i = 0; i < nq; i++) S.positive += reachable[at + i];
    }
    dev_ms = dg__timing_ms(d);
    if (o.stats) {
        S.filter_only = !exact;
        S.built_on = R->built_on;
        S.labels = R->d;
        S.components = R->ncomp;
        S.queries = n;
        S.device_ms = dev_ms;
        S.total_ms = dg__now_ms() - t0;
        *o.stats = S;
    }
done:
    dg__timing_reset(d);
    d->timed = 0;
    return st;
}

DG_API dg_status dg_reach(dg_graph *g, const dg_vertex *src, const dg_vertex *dst, size_t n,
                          uint8_t *reachable) {
    return dg_reach_ex(g, src, dst, n, reachable, NULL);
}

/* =========================================================================
   Whole-graph algorithms: components, SCC, triangles, PageRank   >>graph
   =========================================================================
   dg_components and dg_pagerank run on the device (kernels/70_graph.cl); dg_triangles orients
   an undirected graph on the device (a directed one on the host, O(arcs)) and intersects on the
   device (kernels/75_triangles.cl, a module of its own: it needs 64-bit atomics); dg_scc is its
   own module below (>>scc). */
typedef struct dg__graph_state {
    struct {
        dg__buf comp, flag, rank[2], contrib, part, tot, hubs, probe;
    } b;
} dg__graph_state;

/* The sync, the id limit of the kernels and the module's state. */
static dg_status dg__graph_begin(dg_graph *g, const char *fn, dg__graph_state **out) {
    dg_status st = dg__sync(g);
    *out = NULL;
    if (st != DG_OK) return st;
    if (g->id_bound > 0x7fffffffu) return dg__fail(g, DG_ERR_LIMIT, "%s: too many vertex ids", fn);
    if (!(*out = DG__STATE(g, DG__MOD_GRAPH, dg__graph_state))) return dg__oom(g, fn);
    return DG_OK;
}

/* Afforest's guess at the giant component: the most frequent root among DG__CC_PROBES sampled
   vertices (-1 when none is live). */
#define DG__CC_SAMPLES 2                  /* sampled neighbours a vertex links to first */
#define DG__CC_PROBES 1024                /* vertices whose roots elect the giant component */
static dg_status dg__cc_giant(dg_graph *g, dg__graph_state *gs, cl_int *giant) {
    dg_status st = DG_OK;
    cl_kernel k = NULL;
    cl_uint un = (cl_uint)g->id_bound, ns = DG__CC_PROBES;
    int32_t *roots = NULL;
    size_t i, run = 0, best = 0;
    *giant = -1;
    DG__TRY(dg__buf_fit(g, &gs->b.probe, ns * 4));
    DG__TRY(dg__kernel(g, DG__K_CC_GATHER, 0, &k));
    DG__TRY(dg__args(g, k, DG__A(gs->b.comp.m), DG__A(un), DG__A(gs->b.probe.m), DG__A(ns), DG__END));
    DG__TRY(dg__launch(g, k, ns, g->dev->wg));
    if (!(roots = (int32_t *)dg__alloc(g, ns * sizeof *roots))) { st = dg__oom(g, "dg_components"); goto done; }
    DG__CL(clEnqueueReadBuffer(g->dev->queue, gs->b.probe.m, CL_TRUE, 0, ns * 4, roots, 0, NULL, NULL));
    qsort(roots, ns, sizeof *roots, dg__cmp_i32);
    for (i = 0; i < ns; i++) {                    /* the longest run of one root */
        run = i && roots[i] == roots[i - 1] ? run + 1 : 1;
        if (roots[i] >= 0 && run > best) { best = run; *giant = roots[i]; }
    }
done:
    dg__free(g, roots);
    return st;
}

/* The labels x[0..n) on the device (-1 removed, else the smallest id of the vertex's
   component) into label, or only the components counted on the device when label is NULL
   (no read-back of n words). */
static dg_status dg__labels_out(dg_graph *g, cl_mem x, size_t n, dg_vertex *label, size_t *count) {
    dg__graph_state *gs = DG__STATE(g, DG__MOD_GRAPH, dg__graph_state);
    dg_status st = DG_OK;
    cl_kernel k = NULL;
    cl_uint un = (cl_uint)n;
    uint32_t c = 0;
    size_t v, hc = 0;
    if (!gs) return dg__oom(g, "component labels");
    if (label) {
        DG__TRY(dg__read_out(g, x, 0, n * 4, label));
        for (v = 0; v < n; v++) hc += label[v] == (dg_vertex)v;
        if (count) *count = hc;
        goto done;
    }
    if (!count) goto done;
    DG__TRY(dg__fit_fill(g, &gs->b.probe, 0, 1));
    DG__TRY(dg__kernel(g, DG__K_ROOTS_COUNT, 0, &k));
    DG__TRY(dg__args(g, k, DG__A(x), DG__A(un), DG__A(gs->b.probe.m), DG__END));
    DG__TRY(dg__launch(g, k, n, g->dev->wg));
    DG__TRY(dg__read_u32(g, gs->b.probe.m, 0, &c));
    *count = c;
done:
    return st;
}

DG_API dg_status dg_components(dg_graph *g, dg_vertex *label, size_t *count) {
    dg__graph_state *gs;
    dg__core_state *cs;
    dg__dev *d;
    dg_status st;
    cl_kernel ki = NULL, kh = NULL, kj = NULL, ks = NULL;
    size_t n, passes = 0;
    cl_uint un, nch, mec = DG_CC_CHUNK, r, zero = 0;
    cl_ulong tot;
    cl_int skip = -1;
    uint32_t flag = 1;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__graph_begin(g, "dg_components", &gs)) != DG_OK) return st;
    d = g->dev;
    cs = (dg__core_state *)d->mod[DG__MOD_CORE].state;
    n = g->id_bound;
    un = (cl_uint)n;
    if (n) {
        DG__TRY(dg__ec_ensure(g, 0, mec));
        nch = (cl_uint)cs->ec_chunks; tot = cs->ec_total;
        DG__TRY(dg__buf_fit(g, &gs->b.comp, n * 4));
        DG__TRY(dg__buf_fit(g, &gs->b.flag, 4));
        DG__TRY(dg__kernel(g, DG__K_CC_INIT, 0, &ki));
        DG__TRY(dg__kernel(g, DG__K_CC_HOOK, 0, &kh));
        DG__TRY(dg__kernel(g, DG__K_CC_JUMP, 0, &kj));
        DG__TRY(dg__args(g, ki, DG__A(d->dir.m), DG__A(gs->b.comp.m), DG__A(zero), DG__A(un), DG__END));
        DG__TRY(dg__kernel(g, DG__K_CC_SAMPLE, 0, &ks));
        DG__TRY(dg__args(g, kj, DG__A(gs->b.comp.m), DG__A(un), DG__END));
        DG__TRY(dg__launch(g, ki, n, d->wg));
        for (r = 0; r < DG__CC_SAMPLES; r++) {      /* Afforest: sampled neighbours first */
            DG__TRY(dg__args(g, ks, dg__adj(0, 0), DG__A(gs->b.comp.m), DG__A(un), DG__A(r), DG__END));
            DG__TRY(dg__launch(g, ks, n, d->wg));
            DG__TRY(dg__launch(g, kj, n, d->wg));
        }
        if (g->nstores == 1) DG__TRY(dg__cc_giant(g, gs, &skip));   /* undirected: skip its lists */
        DG__TRY(dg__args(g, kh, dg__adj(0, 0), DG__A(cs->b.deg.m), DG__A(cs->b.sv.m), DG__A(nch), DG__A(mec),
                         DG__A(tot), DG__A(gs->b.comp.m), DG__A(gs->b.flag.m), DG__A(skip), DG__END));
        /* each pass hooks every root joined to a smaller one by an arc; labels only fall, so
           passes are bounded by the id bound (in practice O(log n)) */
        while (flag && nch) {
            if (++passes > n + 1) { st = dg__fail(g, DG_ERR_OPENCL, "dg_components: no convergence"); goto done; }
            DG__TRY(dg__write_u32(g, gs->b.flag.m, 0, 0));
            DG__TRY(dg__launch(g, kh, nch, d->wg));
            DG__TRY(dg__launch(g, kj, n, d->wg));
            DG__TRY(dg__read_u32(g, gs->b.flag.m, 0, &flag));
        }
    }
    if (n) DG__TRY(dg__labels_out(g, gs->b.comp.m, n, label, count));
    else if (count) *count = 0;
done:
    return st;
}

/* dg_pagerank; with warm (a result's ranks, >>result), the iterations start from warm's ranks
   for the ids below `from` (r0 for the others) and the ranks go back into warm (which holds
   the id bound); rank may then be NULL. */
static dg_status dg__pagerank(dg_graph *g, float *rank, const dg_pagerank_options *opt, dg__buf *warm, size_t from) {
    dg__graph_state *gs;
    dg__dev *d;
    dg_status st;
    dg_pagerank_options o;
    cl_kernel ki = NULL, kc = NULL, ks = NULL, kp = NULL, kh = NULL, kph = NULL;
    size_t n, ng, it = 0;
    uint32_t nhubs = 0;
    cl_uint un, ung, slot_d = DG_PR_DANGLING, slot_c = DG_PR_CHANGE;
    float damping, tol, change = 0.0f, r0, nlive;
    uint32_t maxit;
    cl_uint ufrom = warm ? (cl_uint)from : 0u;
    int cur = 0;
    if (opt) o = *opt; else memset(&o, 0, sizeof o);
    damping = o.damping == 0.0f ? 0.85f : o.damping;
    tol = o.tolerance == 0.0f ? 1e-6f : o.tolerance;
    maxit = o.max_iterations ? o.max_iterations : 100;
    if (!(damping > 0.0f && damping < 1.0f))
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_pagerank: damping %g is not in (0, 1)", (double)o.damping);
    if (!(tol > 0.0f))
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_pagerank: tolerance %g is not positive", (double)o.tolerance);
    if (!rank && !warm) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_pagerank: NULL rank");
    if ((st = dg__graph_begin(g, "dg_pagerank", &gs)) != DG_OK) return st;
    d = g->dev;
    n = g->id_bound;
    if (o.stats) memset(o.stats, 0, sizeof *o.stats);
    if (g->nverts == 0) {
        if (n && rank) memset(rank, 0, n * sizeof(float));
        return n && warm ? dg__fill_bytes(g, warm->m, 0, 0, n * 4) : DG_OK;
    }
    nlive = (float)g->nverts;
    r0 = 1.0f / nlive;
    un = (cl_uint)n;
    ng = (n + d->wg - 1) / d->wg;
    ung = (cl_uint)ng;
    DG__TRY(dg__buf_fit(g, &gs->b.rank[0], n * 4));
    DG__TRY(dg__buf_fit(g, &gs->b.rank[1], n * 4));
    DG__TRY(dg__buf_fit(g, &gs->b.contrib, n * 4));
    DG__TRY(dg__buf_fit(g, &gs->b.part, ng * 4));
    DG__TRY(dg__buf_fit(g, &gs->b.tot, DG_PR_TOT_WORDS * 4));
    DG__TRY(dg__buf_fit(g, &gs->b.hubs, (g->narcs / DG_PR_HUB + 1) * 4));   /* hubs have > DG_PR_HUB arcs */
    DG__TRY(dg__buf_fit(g, &gs->b.flag, 4));
    DG__TRY(dg__kernel(g, DG__K_PR_HUBS, 0, &kh));
    DG__TRY(dg__kernel(g, DG__K_PR_PULL_HUBS, 0, &kph));
    DG__TRY(dg__write_u32(g, gs->b.flag.m, 0, 0));
    DG__TRY(dg__args(g, kh, dg__adj(1, 0), DG__A(gs->b.hubs.m), DG__A(gs->b.flag.m), DG__A(un), DG__END));
    DG__TRY(dg__launch(g, kh, n, d->wg));
    DG__TRY(dg__read_u32(g, gs->b.flag.m, 0, &nhubs));
    DG__TRY(dg__kernel(g, DG__K_PR_INIT, 0, &ki));
    DG__TRY(dg__kernel(g, DG__K_PR_CONTRIB, 0, &kc));
    DG__TRY(dg__kernel(g, DG__K_PR_SUM, 0, &ks));
    DG__TRY(dg__kernel(g, DG__K_PR_PULL, 0, &kp));
    if (ufrom) DG__CL(clEnqueueCopyBuffer(d->queue, warm->m, gs->b.rank[0].m, 0, 0, (size_t)ufrom * 4, 0, NULL, NULL));
    DG__TRY(dg__args(g, ki, DG__A(d->dir.m), DG__A(gs->b.rank[0].m), DG__A(r0), DG__A(ufrom), DG__A(un), DG__END));
    DG__TRY(dg__launch(g, ki, n, d->wg));
    for (it = 0; it < maxit; it++) {
        cl_mem rk = gs->b.rank[cur].m, nx = gs->b.rank[cur ^ 1].m;
        DG__TRY(dg__args(g, kc, dg__adj(0, 0), DG__A(rk), DG__A(gs->b.contrib.m), DG__A(gs->b.part.m), DG__A(un), DG__END));
        DG__TRY(dg__launch(g, kc, n, d->wg));
        DG__TRY(dg__args(g, ks, DG__A(gs->b.part.m), DG__A(ung), DG__A(gs->b.tot.m), DG__A(slot_d), DG__END));
        DG__TRY(dg__launch(g, ks, d->wg, d->wg));
        if (nhubs) {
            DG__TRY(dg__args(g, kph, dg__adj(1, 0), DG__A(gs->b.contrib.m), DG__A(gs->b.hubs.m), DG__A(nx),
                             DG__A(gs->b.tot.m), DG__A(damping), DG__A(nlive), DG__END));
            DG__TRY(dg__launch(g, kph, (size_t)nhubs * d->wg, d->wg));
        }
        DG__TRY(dg__args(g, kp, dg__adj(1, 0), DG__A(gs->b.contrib.m), DG__A(rk), DG__A(nx), DG__A(gs->b.part.m),
                         DG__A(gs->b.tot.m), DG__A(damping), DG__A(nlive), DG__A(un), DG__END));
        DG__TRY(dg__launch(g, kp, n, d->wg));
        DG__TRY(dg__args(g, ks, DG__A(gs->b.part.m), DG__A(ung), DG__A(gs->b.tot.m), DG__A(slot_c), DG__END));
        DG__TRY(dg__launch(g, ks, d->wg, d->wg));
        DG__CL(clEnqueueReadBuffer(d->queue, gs->b.tot.m, CL_TRUE, DG_PR_CHANGE * 4, 4, &change, 0, NULL, NULL));
        cur ^= 1;
        if (change < tol) { it++; break; }
    }
    if (warm) DG__CL(clEnqueueCopyBuffer(d->queue, gs->b.rank[cur].m, warm->m, 0, 0, n * 4, 0, NULL, NULL));
    if (rank) DG__TRY(dg__read_out(g, gs->b.rank[cur].m, 0, n * 4, rank));
    if (o.stats) {
        o.stats->iterations = (uint32_t)it;
        o.stats->change = change;
        o.stats->converged = change < tol;
    }
done:
    return st;
}
DG_API dg_status dg_pagerank(dg_graph *g, float *rank, const dg_pagerank_options *opt) {
    return g ? dg__pagerank(g, rank, opt, NULL, 0) : DG_ERR_INVALID_ARGUMENT;
}

/* ---- strongly connected components (kernels/72_scc.cl)   >>scc ----
   On the device: trimming (a vertex without an unassigned in- or out-neighbour is a component
   alone), one forward-backward search from a pivot (the vertex of largest min(out, in)
   degree: in a graph with a giant component it is that component), then rounds of
   signatures for the rest [Alabandi 2023] (ECL-SCC's idea, with smallest ids): every
   unassigned vertex v takes sin[v], the smallest id that reaches it, and sout[v], the
   smallest id it reaches,
   within its part (min-propagation both ways to a fixed point, with jumping); where the two
   are equal, v is in that id's component, whose smallest id it is, and takes it as label.
   The members of a component share both signatures, so every arc whose ends differ in one
   lies in no component and is dropped: the parts split round after round, like the
   recursion of a forward-backward search, but all at once (colouring, which kept one
   signature and started every round from the whole graph, finished only its roots'
   components: a deep DAG of small cycles took ~1/30 of them a round).
   The first phase walks the pages' edge chunks; the arcs whose ends are both unassigned
   and in one part then go to an arc list, compacted after every round (the pivot's search
   gives the first parts: reached forward only, backward only, neither; a search that has
   not ended after DG__SCC_PIVOT passes over the arcs, a long diameter, is dropped, and none
   is made from a pivot of degree below DG__SCC_PIVOT_DEG: the rounds take the whole graph).
   Sweeps that propagate walk only the arcs with an end that changed in the sweep before. Sweeps past DG__SCC_WORK passes
   over all the arcs hand the rest (its open arcs) to the host's Tarjan. An unfinished sweep
   labels nothing. */
#define DG__SCC_GROUPS 256                /* work-groups of the pivot search */
#ifndef DG__SCC_WORK
#define DG__SCC_WORK 512                  /* sweeps (in passes over all the arcs) at most (a CPU
                                             device, in tests: DG__SCC_WORK / 4) */
#endif
#define DG__SCC_PIVOT 16                  /* ... of which the pivot's search takes at most */
#define DG__SCC_PIVOT_DEG 8               /* no pivot's search below this min(out, in) degree */
static size_t dg__scc_passes = 0;         /* tests: the budget in passes, if not 0 */
static int dg__scc_cpu_device = 0;        /* tests: 1 = the device's rounds on a CPU device too */
typedef struct dg__scc_state {
    struct { dg__buf scc, mk, sin, sout, ctl, part, cnt, src[2], dst[2], fl; } b;
    size_t work, budget;                  /* chunks swept in this call, and the most allowed */
    size_t rounds, sweeps;                /* of the last call (read by test_graph) ... */
    int pivot;                            /* ... 0: no pivot's search, 1: one ended, 2: one dropped */
    int slow;                             /* the budget ran out: the host finishes */
} dg__scc_state;

/* The arcs a sweep walks: the pages' edge chunks (list < 0) or arc list `list` of m arcs. */
typedef struct dg__scc_arcs { int list; cl_uint m; } dg__scc_arcs;
static uint64_t dg__scc_list_max = 0xffffffffu;   /* the most arcs an arc list can come from (a test hook) */

/* The flags of changed vertices (kernels/72_scc.cl: two bits a vertex, forward then
   backward, each half (id_bound + 15) / 16 words): every vertex changed (v = 1) or none, for
   the first sweep of dg__scc_sweep(..., until_stable = 1). */
static size_t dg__scc_flag_words(const dg_graph *g) { return 2 * (((size_t)g->id_bound + 15) / 16); }
static dg_status dg__scc_flags(dg_graph *g, dg__scc_state *ss, int v) {
    size_t words = dg__scc_flag_words(g);
    dg_status st = DG_OK;
    DG__TRY(dg__buf_fit(g, &ss->b.fl, words * 4));
    DG__TRY(dg__fill(g, ss->b.fl.m, v ? 0x55555555 : 0, words));
done:
    return st;
}
/* One sweep of mode over the arcs (DG_SCC_WRITE: into list `out`); with until_stable (modes
   DG_SCC_FWBW and DG_SCC_SIGN, after dg__scc_flags), repeated until a sweep changes nothing,
   each walking only the arcs with an end that changed in the sweep before. */
static dg_status dg__scc_sweep(dg_graph *g, dg__scc_state *ss, const dg__scc_arcs *a, int mode, int until_stable,
                               int out) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_kernel k = NULL;
    cl_uint mec = DG_CC_CHUNK, nch, m = a->m;
    cl_ulong tot;
    cl_int md = mode;
    cl_mem none = NULL, as = a->list >= 0 ? ss->b.src[a->list].m : NULL, ad = a->list >= 0 ? ss->b.dst[a->list].m : NULL;
    cl_mem os = out >= 0 ? ss->b.src[out].m : NULL, od = out >= 0 ? ss->b.dst[out].m : NULL;
    cl_mem off = a->list >= 0 ? none : cs->b.deg.m, sv = a->list >= 0 ? none : cs->b.sv.m;
    cl_mem fl = until_stable ? ss->b.fl.m : NULL;
    cl_uint n = (cl_uint)g->id_bound, words = (cl_uint)dg__scc_flag_words(g);
    uint32_t flag = 1;
    size_t passes = 0;
    if (a->list >= 0) { nch = m / mec + (m % mec != 0); tot = m; }   /* no 32-bit wrap */
    else { nch = (cl_uint)cs->ec_chunks; tot = cs->ec_total; }
    if (!nch) return DG_OK;
    DG__TRY(dg__kernel(g, DG__K_SCC_SWEEP, 0, &k));
    DG__TRY(dg__args(g, k, dg__adj(0, 0), DG__A(off), DG__A(sv), DG__A(nch), DG__A(mec), DG__A(tot), DG__A(as),
                     DG__A(ad), DG__A(m), DG__A(md), DG__A(ss->b.scc.m), DG__A(ss->b.mk.m), DG__A(ss->b.sin.m),
                     DG__A(ss->b.sout.m), DG__A(fl), DG__A(n), DG__A(ss->b.cnt.m), DG__A(os), DG__A(od),
                     DG__A(ss->b.ctl.m), DG__END));
    while (flag) {
        if (until_stable) DG__TRY(dg__fill(g, ss->b.ctl.m, 0, DG_SCC_CTL_FLAG + 1));   /* (no round trip) */
        DG__TRY(dg__launch(g, k, nch, d->wg));
        ss->work += nch;
        ss->sweeps++;
        if (!until_stable) break;
        DG__TRY(dg__run(g, DG__K_SCC_NEXT, words, DG__A(fl), DG__A(words), DG__END));   /* the next one's */
        DG__TRY(dg__read_u32(g, ss->b.ctl.m, DG_SCC_CTL_FLAG, &flag));
        if (flag && ss->work > ss->budget) { ss->slow = 1; break; }   /* unfinished: not to be used */
        if (++passes > g->id_bound + 1) return dg__fail(g, DG_ERR_OPENCL, "dg_scc: a sweep does not converge");
    }
done:
    return st;
}
/* One vertex step (DG_SCC_TRIM ...) over every id. */
static dg_status dg__scc_step(dg_graph *g, dg__scc_state *ss, int step) {
    dg_status st;
    cl_kernel k = NULL;
    cl_uint n = (cl_uint)g->id_bound;
    cl_int s = step;
    if ((st = dg__kernel(g, DG__K_SCC_STEP, 0, &k)) != DG_OK) return st;
    if ((st = dg__args(g, k, DG__A(ss->b.scc.m), DG__A(ss->b.mk.m), DG__A(ss->b.sin.m), DG__A(ss->b.sout.m), DG__A(n), DG__A(s),
                       DG__A(ss->b.ctl.m), DG__END)) != DG_OK)
        return st;
    return dg__launch(g, k, n, g->dev->wg);
}
/* Trimming: marks the unassigned ends of every arc, then labels the vertices that lack one. */
static dg_status dg__scc_trim(dg_graph *g, dg__scc_state *ss, const dg__scc_arcs *a) {
    dg_status st;
    if ((st = dg__scc_step(g, ss, DG_SCC_CLEAR)) != DG_OK) return st;
    if ((st = dg__scc_sweep(g, ss, a, DG_SCC_MARK, 0, -1)) != DG_OK) return st;
    return dg__scc_step(g, ss, DG_SCC_TRIM);
}
/* Vertices labelled so far. */
static dg_status dg__scc_done(dg_graph *g, dg__scc_state *ss, size_t *done) {
    uint32_t x = 0;
    dg_status st = dg__read_u32(g, ss->b.ctl.m, DG_SCC_CTL_DONE, &x);
    *done = x;
    return st;
}
/* The forward-backward search from the pivot; *found = 0 when no vertex is unassigned. */
static dg_status dg__scc_pivot(dg_graph *g, dg__scc_state *ss, const dg__scc_arcs *a) {
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_kernel k = NULL;
    cl_uint n = (cl_uint)g->id_bound, *part = NULL, best = 0, pv = 0xffffffffu;
    size_t groups = (n + d->wg - 1) / d->wg, i, budget, nch = ((dg__core_state *)d->mod[DG__MOD_CORE].state)->ec_chunks;
    if (groups > DG__SCC_GROUPS) groups = DG__SCC_GROUPS;
    DG__TRY(dg__buf_fit(g, &ss->b.part, groups * 8));
    DG__TRY(dg__kernel(g, DG__K_SCC_PIVOT, 0, &k));
    DG__TRY(dg__args(g, k, dg__adj(0, 0), dg__adj(1, 0), DG__A(ss->b.scc.m), DG__A(n), DG__A(ss->b.part.m), DG__END));
    DG__TRY(dg__launch(g, k, groups * d->wg, d->wg));
    if (!(part = (cl_uint *)dg__alloc(g, groups * 8))) { st = dg__oom(g, "dg_scc"); goto done; }
    DG__CL(clEnqueueReadBuffer(d->queue, ss->b.part.m, CL_TRUE, 0, groups * 8, part, 0, NULL, NULL));
    for (i = 0; i < groups; i++)
        if (part[2 * i + 1] != 0xffffffffu && (pv == 0xffffffffu || part[2 * i] > best)) {
            best = part[2 * i]; pv = part[2 * i + 1];
        }
    if (pv == 0xffffffffu || best < DG__SCC_PIVOT_DEG) goto done;
    DG__TRY(dg__scc_step(g, ss, DG_SCC_CLEAR));
    DG__TRY(dg__write_u32(g, ss->b.mk.m, pv, DG_SCC_IN | DG_SCC_OUT));
    DG__TRY(dg__scc_flags(g, ss, 0));
    DG__TRY(dg__write_u32(g, ss->b.fl.m, pv / 16, 1u << (2 * (pv % 16))));
    DG__TRY(dg__write_u32(g, ss->b.fl.m, (n + 15) / 16 + pv / 16, 1u << (2 * (pv % 16))));
    budget = ss->budget;
    ss->budget = ss->work + DG__SCC_PIVOT * (nch + 1);
    st = dg__scc_sweep(g, ss, a, DG_SCC_FWBW, 1, -1);
    ss->budget = budget;
    if (st != DG_OK) goto done;
    if (ss->slow) { ss->slow = 0; ss->pivot = 2; goto done; }    /* dropped: its marks mean nothing */
    ss->pivot = 1;
    DG__TRY(dg__write_u32(g, ss->b.ctl.m, DG_SCC_CTL_MIN, 0x7fffffffu));
    DG__TRY(dg__scc_step(g, ss, DG_SCC_PIVOT_MIN));
    DG__TRY(dg__scc_step(g, ss, DG_SCC_PIVOT_SET));
    DG__TRY(dg__scc_step(g, ss, DG_SCC_PARTS));    /* the parts it leaves */
done:
    dg__free(g, part);
    return st;
}
/* The host finishes: the scc labels read back into lab, then Tarjan over the open arcs (list
   a, read back) labels each component of the unassigned vertices with its smallest id. */
/* Tarjan over the CSR (row, col) of n ids; each vertex v that `open` selects (lab[v] ==
   DG_SCC_UNSET; open = 0: every live vertex, the others -1) takes the smallest id of its
   component as lab[v]. */
static dg_status dg__scc_tarjan(dg_graph *g, size_t n, const uint32_t *row, const int32_t *col, int32_t *lab, int open) {
    int32_t *comp = (int32_t *)dg__alloc(g, (n ? n : 1) * sizeof(int32_t));
    int32_t *minv = (int32_t *)dg__alloc(g, (n ? n : 1) * sizeof(int32_t));
    size_t nc = 0, v;
    dg_status st = DG_OK;
    if (!comp || !minv) { st = dg__oom(g, "dg_scc: Tarjan"); goto done; }
    DG__TRY(dg__reach_scc(g, n, row, col, comp, &nc));
    for (v = n; v-- > 0;)
        if (comp[v] >= 0 && (!open || lab[v] == DG_SCC_UNSET)) minv[comp[v]] = (int32_t)v;
    for (v = 0; v < n; v++)
        if (!open) lab[v] = comp[v] >= 0 ? minv[comp[v]] : -1;
        else if (lab[v] == DG_SCC_UNSET) lab[v] = minv[comp[v]];
done:
    dg__free(g, comp); dg__free(g, minv);
    return st;
}
static dg_status dg__scc_host_rest(dg_graph *g, dg__scc_state *ss, const dg__scc_arcs *a, int32_t *lab) {
    dg__dev *d = g->dev;
    size_t n = g->id_bound, m = a->m, i;
    uint32_t *row = NULL;
    int32_t *src = NULL, *dst = NULL, *col = NULL;
    dg_status st = DG_OK;
    if (a->list < 0)   /* still on the pages (dg__scc_compact): 2^32 arcs or more */
        return dg__fail(g, DG_ERR_LIMIT, "dg_scc: the last components of a graph of %llu arcs need the host (at most 2^32 - 1)",
                        (unsigned long long)g->narcs);
    DG__CL(clEnqueueReadBuffer(d->queue, ss->b.scc.m, CL_TRUE, 0, n * 4, lab, 0, NULL, NULL));
    row = (uint32_t *)dg__alloc(g, (n + 1) * sizeof *row);
    src = (int32_t *)dg__alloc(g, (m ? m : 1) * sizeof *src);
    dst = (int32_t *)dg__alloc(g, (m ? m : 1) * sizeof *dst);
    col = (int32_t *)dg__alloc(g, (m ? m : 1) * sizeof *col);
    if (!row || !src || !dst || !col) { st = dg__oom(g, "dg_scc: the host's part"); goto done; }
    if (m && a->list >= 0) {
        DG__CL(clEnqueueReadBuffer(d->queue, ss->b.src[a->list].m, CL_TRUE, 0, m * 4, src, 0, NULL, NULL));
        DG__CL(clEnqueueReadBuffer(d->queue, ss->b.dst[a->list].m, CL_TRUE, 0, m * 4, dst, 0, NULL, NULL));
    }
    memset(row, 0, (n + 1) * sizeof *row);
    for (i = 0; i < m; i++) row[src[i] + 1]++;
    for (i = 0; i < n; i++) row[i + 1] += row[i];
    for (i = 0; i < m; i++) col[row[src[i]]++] = dst[i];      /* row[v] ends at v's end ... */
    for (i = n; i > 0; i--) row[i] = row[i - 1];               /* ... so shift it back */
    row[0] = 0;
    st = dg__scc_tarjan(g, n, row, col, lab, 1);
done:
    dg__free(g, row); dg__free(g, src); dg__free(g, dst); dg__free(g, col);
    return st;
}

/* The arcs of a whose ends are both unassigned and have the same signatures into list `out`
   (counts per chunk, their scan, then the writes); a becomes that list. A graph of 2^32 arcs
   or more stays on its pages (an arc list counts in 32 bits): every sweep walks them all. */
static dg_status dg__scc_compact(dg_graph *g, dg__scc_state *ss, dg__scc_arcs *a, int out) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg_status st = DG_OK;
    size_t nch = a->list >= 0 ? (size_t)a->m / DG_CC_CHUNK + (a->m % DG_CC_CHUNK != 0) : cs->ec_chunks;
    uint32_t kept = 0;
    if (a->list < 0 && g->narcs > dg__scc_list_max) return DG_OK;
    DG__TRY(dg__buf_fit(g, &ss->b.cnt, (nch + 1) * 4));
    DG__TRY(dg__buf_fit(g, &cs->b.total, 4));
    if (nch) {
        DG__TRY(dg__scc_sweep(g, ss, a, DG_SCC_KEEP, 0, -1));
        DG__TRY(dg__scan(g, ss->b.cnt.m, ss->b.cnt.m, nch, cs->b.total.m, 0));
        DG__TRY(dg__read_u32(g, cs->b.total.m, 0, &kept));
    }
    DG__TRY(dg__buf_fit(g, &ss->b.src[out], (size_t)kept * 4));
    DG__TRY(dg__buf_fit(g, &ss->b.dst[out], (size_t)kept * 4));
    if (kept) DG__TRY(dg__scc_sweep(g, ss, a, DG_SCC_WRITE, 0, out));
    a->list = out;
    a->m = kept;
done:
    return st;
}

/* dg_scc on a CPU device: Tarjan on the host over a CSR of the out-lists (the device's rounds
   run on the same cores with emulated work-groups: PoCL, Kronecker s16 41 ms against 17 ms,
   bench_reach's cyclic graph of 100k vertices 463 against 10 ms; bench/NOTES.md). */
static dg_status dg__scc_host(dg_graph *g, dg_vertex *label, size_t *count) {
    size_t n = g->id_bound, v, c = 0;
    uint32_t *row = NULL;
    int32_t *col = NULL, *lab = label ? label : (int32_t *)dg__alloc(g, (n ? n : 1) * sizeof(int32_t));
    dg_status st = DG_OK;
    if (!lab) return dg__oom(g, "dg_scc");
    DG__TRY(dg__host_csr(g, n, &row, &col));
    DG__TRY(dg__scc_tarjan(g, n, row, col, lab, 0));
    for (v = 0; v < n; v++) c += lab[v] == (int32_t)v;
    if (count) *count = c;
done:
    dg__free(g, row); dg__free(g, col);
    if (lab != label) dg__free(g, lab);
    return st;
}

DG_API dg_status dg_scc(dg_graph *g, dg_vertex *label, size_t *count) {
    dg__scc_state *ss;
    dg_status st;
    dg__scc_arcs arcs;
    size_t n, done = 0;
    int32_t *lab = NULL;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if (g->nstores == 1) return dg_components(g, label, count);   /* undirected: the same */
    if ((st = dg__sync(g)) != DG_OK) return st;
    if (g->id_bound > 0x7fffffffu) return dg__fail(g, DG_ERR_LIMIT, "dg_scc: too many vertex ids");
    if (!(ss = DG__STATE(g, DG__MOD_SCC, dg__scc_state))) return dg__oom(g, "dg_scc");
    n = g->id_bound;
    if (count) *count = 0;
    ss->rounds = ss->sweeps = 0;
    ss->slow = ss->pivot = 0;
    if (g->dev->cpu && !dg__scc_cpu_device) { ss->slow = 1; return dg__scc_host(g, label, count); }
    if (n) {
        cl_kernel ki = NULL;
        cl_uint un = (cl_uint)n;
        DG__TRY(dg__ec_ensure(g, 0, DG_CC_CHUNK));
        ss->work = 0;
        ss->budget = (dg__scc_passes ? dg__scc_passes : g->dev->cpu ? DG__SCC_WORK / 4 : DG__SCC_WORK) *
                     (((dg__core_state *)g->dev->mod[DG__MOD_CORE].state)->ec_chunks + 1);
        DG__TRY(dg__buf_fit(g, &ss->b.scc, n * 4));
        DG__TRY(dg__buf_fit(g, &ss->b.mk, n * 4));
        DG__TRY(dg__buf_fit(g, &ss->b.sin, n * 4));
        DG__TRY(dg__buf_fit(g, &ss->b.sout, n * 4));
        DG__TRY(dg__buf_fit(g, &ss->b.ctl, DG_SCC_CTL_WORDS * 4));
        DG__TRY(dg__buf_fit(g, &ss->b.cnt, 4));
        DG__TRY(dg__fill(g, ss->b.sin.m, 0, n));     /* one part until the pivot's search */
        DG__TRY(dg__fill(g, ss->b.sout.m, 0, n));
        DG__TRY(dg__kernel(g, DG__K_SCC_INIT, 0, &ki));
        DG__TRY(dg__args(g, ki, DG__A(g->dev->dir.m), DG__A(ss->b.scc.m), DG__A(un), DG__END));
        DG__TRY(dg__launch(g, ki, n, g->dev->wg));
        DG__TRY(dg__write_u32(g, ss->b.ctl.m, DG_SCC_CTL_DONE, 0));
        /* on the pages: trimming, the giant component; then the rest goes to an arc list */
        arcs.list = -1; arcs.m = 0;
        DG__TRY(dg__scc_trim(g, ss, &arcs));
        DG__TRY(dg__scc_pivot(g, ss, &arcs));
        DG__TRY(dg__scc_compact(g, ss, &arcs, 0));
        DG__TRY(dg__scc_done(g, ss, &done));
        /* rounds: each labels at least the smallest vertex of every part */
        while (done < g->nverts && !ss->slow) {
            DG__TRY(dg__scc_trim(g, ss, &arcs));
            DG__TRY(dg__scc_step(g, ss, DG_SCC_SIGN_START));
            DG__TRY(dg__scc_flags(g, ss, 1));
            DG__TRY(dg__scc_sweep(g, ss, &arcs, DG_SCC_SIGN, 1, -1));
            if (ss->slow) break;
            DG__TRY(dg__scc_step(g, ss, DG_SCC_TAKE));
            DG__TRY(dg__scc_compact(g, ss, &arcs, arcs.list ^ 1));
            DG__TRY(dg__scc_done(g, ss, &done));
            ss->rounds++;
        }
        if (done < g->nverts) {                   /* slow: the host finishes */
            size_t v, c = 0;
            lab = label ? label : (int32_t *)dg__alloc(g, n * sizeof(int32_t));
            if (!lab) { st = dg__oom(g, "dg_scc: labels"); goto done; }
            DG__TRY(dg__scc_host_rest(g, ss, &arcs, lab));
            for (v = 0; v < n; v++) c += lab[v] == (int32_t)v;
            if (count) *count = c;
        } else {
            DG__TRY(dg__labels_out(g, ss->b.scc.m, n, label, count));
        }
    }
done:
    if (lab && lab != label) dg__free(g, lab);
    return st;
}
/* ---- triangles (kernels/75_triangles.cl): orientation (device, or host for a directed
   graph), then the device intersects ---- */
typedef struct dg__tri_state {
    struct { dg__buf lrow, low, total, pv, selfc, cnt, lw, frow, fcol, iheavy, ictl; } b;
    uint64_t gen;                 /* the mirror generation the lists were made for */
    uint32_t m;                   /* arcs in the lists */
    int valid;
    uint64_t fgen;                /* dg_intersect: the sorted copy of the out-lists (frow, fcol) */
    int fvalid;                   /*   made for mirror generation fgen */
} dg__tri_state;

/* The shorter list's length past which an arc (a pair) goes to a work-group: DG_TC_HEAVY on a
   GPU; never on a CPU device (PoCL: Kronecker s16 counts 1.3 s without, 3.0 s with, its
   work-groups' barriers emulated); dg__tc_heavy (tests) overrides both when not 0. */
static cl_uint dg__tc_heavy = 0;
static cl_uint dg__tc_heavy_min(const dg_graph *g) {
    return dg__tc_heavy ? dg__tc_heavy : g->dev->cpu ? 0xffffffffu : DG_TC_HEAVY;
}

/* The simple undirected neighbours of the live vertex v (no self-loop, no repeat; out- and
   in-arcs of a directed graph) into buf; returns how many. Uses the mark bits. */
static size_t dg__simple_nbrs(dg_graph *g, dg_vertex v, int32_t *buf) {
    size_t n = 0, i;
    int si, j;
    for (si = 0; si < g->nstores; si++) {
        const dg__store *s = &g->st[si];
        int32_t runs = dg__list_runs(g, s, v);
        for (j = 0; j < runs; j++) {
            uint32_t len, k;
            size_t at = dg__list_run(g, s, v, j, &len);
            for (k = 0; k < len; k++) {
                int32_t w = s->pool[at + k];
                if (w == v || (g->nstores == 2 && DG__MARKED(g, w))) continue;
                if (g->nstores == 2) DG__MARK(g, w);
                buf[n++] = w;
            }
        }
    }
    if (g->nstores == 2) for (i = 0; i < n; i++) DG__UNMARK(g, buf[i]);
    return n;
}

/* The oriented lists: for each w, the neighbours below it, ascending (filled in id order). */
static dg_status dg__tri_lists(dg_graph *g, size_t n, uint32_t **plrow, int32_t **plow, size_t *pm) {
    size_t v, i, m = 0, most = 1, d;
    uint32_t *deg = NULL, *lrow = NULL, *pos = NULL;
    int32_t *low = NULL, *buf = NULL;
    dg_status st = DG_OK;
    *plrow = NULL; *plow = NULL; *pm = 0;
    DG__TRY(dg__fresh_all(g));
    DG__TRY(dg__marks(g));
    for (v = 0; v < n; v++)
        if (dg__alive(g, (dg_vertex)v)) {
            d = dg__deg(g, &g->st[0], (dg_vertex)v) + (g->nstores == 2 ? dg__deg(g, &g->st[1], (dg_vertex)v) : 0);
            if (d > most) most = d;
        }
    deg = (uint32_t *)dg__alloc(g, (n + 1) * sizeof(uint32_t));
    lrow = (uint32_t *)dg__alloc(g, (n + 2) * sizeof(uint32_t));
    pos = (uint32_t *)dg__alloc(g, (n + 1) * sizeof(uint32_t));
    buf = (int32_t *)dg__alloc(g, most * sizeof(int32_t));
    if (!deg || !lrow || !pos || !buf) { st = dg__oom(g, "dg_triangles: lists"); goto done; }
    for (v = 0; v < n; v++) deg[v] = dg__alive(g, (dg_vertex)v) ? (uint32_t)dg__simple_nbrs(g, (dg_vertex)v, buf) : 0;
    memset(pos, 0, (n + 1) * sizeof(uint32_t));
#define DG__BELOW(a, b) (deg[a] < deg[b] || (deg[a] == deg[b] && (a) < (b)))
    for (v = 0; v < n; v++) {
        if (!deg[v]) continue;
        d = dg__simple_nbrs(g, (dg_vertex)v, buf);
        for (i = 0; i < d; i++) if (DG__BELOW(v, (size_t)buf[i])) { pos[buf[i]]++; m++; }
    }
    if (m > 0xffffffffu) { st = dg__fail(g, DG_ERR_LIMIT, "dg_triangles: 2^32 oriented arcs or more"); goto done; }
    lrow[0] = 0;
    for (v = 0; v < n; v++) { lrow[v + 1] = lrow[v] + pos[v]; pos[v] = lrow[v]; }
    if (!(low = (int32_t *)dg__alloc(g, (m ? m : 1) * sizeof(int32_t)))) { st = dg__oom(g, "dg_triangles: lists"); goto done; }
    for (v = 0; v < n; v++) {                     /* v ascending: every list comes out sorted */
        if (!deg[v]) continue;
        d = dg__simple_nbrs(g, (dg_vertex)v, buf);
        for (i = 0; i < d; i++) if (DG__BELOW(v, (size_t)buf[i])) low[pos[buf[i]]++] = (int32_t)v;
    }
#undef DG__BELOW
    *plrow = lrow; *plow = low; *pm = m;
    lrow = NULL; low = NULL;
done:
    dg__free(g, deg); dg__free(g, lrow); dg__free(g, pos); dg__free(g, buf); dg__free(g, low);
    return st;
}

/* The orientation on the device, for an undirected graph (kernels/75_triangles.cl): the low
   lists into ts->b.low with their offsets in ts->b.lrow, *pm arcs. Scratch: ts->b.selfc,
   ts->b.cnt, ts->b.lw. */
static dg_status dg__tri_orient(dg_graph *g, dg__tri_state *ts, int full, dg__buf *row, dg__buf *col, size_t *pm) {
    dg__core_state *cs = (dg__core_state *)g->dev->mod[DG__MOD_CORE].state;
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    cl_kernel k = NULL;
    size_t n = g->id_bound;
    cl_uint mec = DG_CC_CHUNK, nch;
    cl_ulong tot;
    cl_int pass;
    uint32_t m = 0;
    unsigned bits = 0;
    *pm = 0;
    if (g->narcs > 0xffffffffu)                   /* (the counts' scan below is 32-bit) */
        return dg__fail(g, DG_ERR_LIMIT, "%s: 2^32 arcs or more", full ? "dg_intersect" : "dg_triangles");
    DG__TRY(dg__ec_ensure(g, 0, mec));
    nch = (cl_uint)cs->ec_chunks; tot = cs->ec_total;
    DG__TRY(dg__fit_fill(g, &ts->b.selfc, 0, n));
    DG__TRY(dg__fit_fill(g, &ts->b.cnt, 0, n + 1));
    DG__TRY(dg__buf_fit(g, row, (n + 1) * 4));
    DG__TRY(dg__buf_fit(g, &ts->b.total, 8));
    DG__TRY(dg__kernel(g, DG__K_TC_ORIENT, 0, &k));
    for (pass = full; pass < 3; pass++) {
        if (pass == 2) {                          /* the offsets, then the pairs */
            DG__TRY(dg__scan(g, ts->b.cnt.m, row->m, n + 1, ts->b.total.m, 0));
            DG__TRY(dg__read_u32(g, ts->b.total.m, 0, &m));
            if (m > 0x7fffffffu) return dg__fail(g, DG_ERR_LIMIT, "%s: 2^31 arcs or more", full ? "dg_intersect" : "dg_triangles");
            if (!m) break;
            DG__TRY(dg__fill(g, ts->b.cnt.m, 0, n + 1));
            DG__TRY(dg__buf_fit(g, col, (size_t)m * 4));
            DG__TRY(dg__buf_fit(g, &ts->b.lw, (size_t)m * 4));
        }
        DG__TRY(dg__args(g, k, dg__adj(0, 0), DG__A(cs->b.deg.m), DG__A(cs->b.sv.m), DG__A(nch), DG__A(mec),
                         DG__A(tot), DG__A(ts->b.selfc.m), DG__A(ts->b.cnt.m), DG__A(row->m),
                         DG__A(col->m), DG__A(ts->b.lw.m), DG__A(pass), DG__A(full), DG__END));
        if (nch) DG__TRY(dg__launch(g, k, nch, d->wg));
    }
    if (m) {                                      /* by v, then stably by w */
        while (bits < 32 && ((size_t)1 << bits) < n) bits += DG_SORT_BITS;
        DG__TRY(dg__sort_pairs(g, col->m, ts->b.lw.m, m, bits));
        DG__TRY(dg__sort_pairs(g, ts->b.lw.m, col->m, m, bits));
    }
    *pm = m;
done:
    return st;
}

DG_API dg_status dg_triangles(dg_graph *g, uint64_t *total, uint64_t *per_vertex) {
    dg__tri_state *ts;
    dg__dev *d;
    dg_status st;
    cl_kernel k = NULL, kh = NULL;
    size_t n;
    cl_uint un, um;
    cl_int want = per_vertex != NULL;
    cl_uint hmin;
    uint64_t t = 0, zero = 0;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if ((st = dg__sync(g)) != DG_OK) return st;
    if (g->id_bound > 0x7fffffffu) return dg__fail(g, DG_ERR_LIMIT, "dg_triangles: too many vertex ids");
    if (!(ts = DG__STATE(g, DG__MOD_TRI, dg__tri_state))) return dg__oom(g, "dg_triangles");
    d = g->dev;
    n = g->id_bound;
    hmin = dg__tc_heavy_min(g);
    if ((!ts->valid || ts->gen != d->gen) && g->nstores == 1) {   /* undirected: on the device */
        size_t m = 0;
        ts->valid = 0;
        DG__TRY(dg__tri_orient(g, ts, 0, &ts->b.lrow, &ts->b.low, &m));
        ts->m = (uint32_t)m; ts->gen = d->gen; ts->valid = 1;
    } else if (!ts->valid || ts->gen != d->gen) {   /* directed: the host merges both lists */
        uint32_t *lrow = NULL;
        int32_t *low = NULL;
        size_t m = 0;
        ts->valid = 0;
        DG__TRY(dg__tri_lists(g, n, &lrow, &low, &m));
        st = dg__buf_fit(g, &ts->b.lrow, (n + 1) * 4);
        if (st == DG_OK) st = dg__buf_fit(g, &ts->b.low, (m ? m : 1) * 4);
        if (st == DG_OK) st = dg__clwrite(g, ts->b.lrow.m, lrow, (n + 1) * 4);
        if (st == DG_OK && m) st = dg__clwrite(g, ts->b.low.m, low, m * 4);
        dg__free(g, lrow);
        dg__free(g, low);
        if (st != DG_OK) goto done;
        ts->m = (uint32_t)m; ts->gen = d->gen; ts->valid = 1;
    }
    un = (cl_uint)n; um = ts->m;
    DG__TRY(dg__buf_fit(g, &ts->b.total, 8));
    DG__TRY(dg__clwrite(g, ts->b.total.m, &zero, 8));
    if (want) DG__TRY(dg__fit_fill(g, &ts->b.pv, 0, 2 * (n ? n : 1)));
    else DG__TRY(dg__buf_fit(g, &ts->b.pv, 8));
    /* light arcs a work-item each; the heavy ones listed (into lw, the orientation's scratch;
       their count in cnt[0]) for a work-group each */
    DG__TRY(dg__buf_fit(g, &ts->b.lw, (size_t)(um ? um : 1) * 4));
    DG__TRY(dg__fit_fill(g, &ts->b.cnt, 0, 1));
    DG__TRY(dg__kernel(g, DG__K_TC_COUNT, 0, &k));
    DG__TRY(dg__kernel(g, DG__K_TC_COUNT_HEAVY, 0, &kh));
    DG__TRY(dg__args(g, k, DG__A(ts->b.lrow.m), DG__A(ts->b.low.m), DG__A(un), DG__A(um), DG__A(ts->b.total.m),
                     DG__A(ts->b.pv.m), DG__A(want), DG__A(ts->b.lw.m), DG__A(ts->b.cnt.m), DG__A(hmin), DG__END));
    DG__TRY(dg__args(g, kh, DG__A(ts->b.lrow.m), DG__A(ts->b.low.m), DG__A(un), DG__A(ts->b.total.m),
                     DG__A(ts->b.pv.m), DG__A(want), DG__A(ts->b.lw.m), DG__A(ts->b.cnt.m), DG__END));
    DG__TRY(dg__launch(g, k, um, d->wg));
    DG__TRY(dg__launch(g, kh, d->groups * d->wg, d->wg));
    DG__CL(clEnqueueReadBuffer(d->queue, ts->b.total.m, CL_TRUE, 0, 8, &t, 0, NULL, NULL));
    if (want && n) DG__CL(clEnqueueReadBuffer(d->queue, ts->b.pv.m, CL_TRUE, 0, n * 8, per_vertex, 0, NULL, NULL));
    if (total) *total = t;
done:
    return st;
}

/* dg_intersect: the sorted copy of the out-lists (made once per graph version, as the
   triangles' orientation with every arc kept), the light pairs (a work-item each) and the
   heavy ones (a work-group each), then the heavy count and the error word (the first bad
   pair) in one 8-byte read. */
DG_API dg_status dg_intersect(dg_graph *g, cl_mem pairs, size_t n, cl_mem counts) {
    dg__tri_state *ts;
    dg__dev *d;
    dg_status st = DG_OK;
    size_t sp = 0, sc = 0;
    cl_uint un = (cl_uint)n, ub, ctl[2] = { 0, 0xffffffffu }, hmin;
    int32_t pr[2];
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if (!pairs || !counts) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_intersect: NULL buffer");
    if (n > 0x7fffffffu) return dg__fail(g, DG_ERR_LIMIT, "dg_intersect: %zu pairs (at most 2^31 - 1)", n);
    if (clGetMemObjectInfo(pairs, CL_MEM_SIZE, sizeof sp, &sp, NULL) != CL_SUCCESS || sp < n * 8 ||
        clGetMemObjectInfo(counts, CL_MEM_SIZE, sizeof sc, &sc, NULL) != CL_SUCCESS || sc < n * 4)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_intersect: %zu pairs need %zu bytes of pairs and %zu of counts "
                        "(the buffers hold %zu and %zu)", n, n * 8, n * 4, sp, sc);
    if (n == 0) return DG_OK;
    if ((st = dg__sync(g)) != DG_OK) return st;
    if (!(ts = DG__STATE(g, DG__MOD_TRI, dg__tri_state))) return dg__oom(g, "dg_intersect");
    d = g->dev;
    ub = (cl_uint)g->id_bound;
    if (g->id_bound > 0x7fffffffu) return dg__fail(g, DG_ERR_LIMIT, "dg_intersect: too many vertex ids");
    if (!ts->fvalid || ts->fgen != d->gen) {
        size_t m = 0;
        ts->fvalid = 0;
        DG__TRY(dg__tri_orient(g, ts, 1, &ts->b.frow, &ts->b.fcol, &m));
        if (!m) DG__TRY(dg__buf_fit(g, &ts->b.fcol, 4));
        ts->fgen = d->gen; ts->fvalid = 1;
    }
    DG__TRY(dg__buf_fit(g, &ts->b.iheavy, n * 4));
    DG__TRY(dg__buf_fit(g, &ts->b.ictl, 8));
    DG__TRY(dg__clwrite(g, ts->b.ictl.m, ctl, 8));
    hmin = dg__tc_heavy_min(g);
    DG__TRY(dg__run(g, DG__K_ISECT_LIGHT, n, DG__A(ts->b.frow.m), DG__A(ts->b.fcol.m), DG__A(d->dir.m), DG__A(pairs),
                    DG__A(un), DG__A(ub), DG__A(counts), DG__A(ts->b.iheavy.m), DG__A(ts->b.ictl.m), DG__A(hmin), DG__END));
    DG__TRY(dg__run(g, DG__K_ISECT_HEAVY, d->groups * d->wg, DG__A(ts->b.frow.m), DG__A(ts->b.fcol.m), DG__A(pairs),
                    DG__A(counts), DG__A(ts->b.iheavy.m), DG__A(ts->b.ictl.m), DG__END));
    DG__CL(clEnqueueReadBuffer(d->queue, ts->b.ictl.m, CL_TRUE, 0, 8, ctl, 0, NULL, NULL));
    if (ctl[1] != 0xffffffffu) {
        DG__CL(clEnqueueReadBuffer(d->queue, pairs, CL_TRUE, (size_t)ctl[1] * 8, 8, pr, 0, NULL, NULL));
        if (pr[0] < 0 || pr[1] < 0)
            return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_intersect: negative vertex id in pair %u (%d, %d)",
                            (unsigned)ctl[1], (int)pr[0], (int)pr[1]);
        return dg__fail(g, DG_ERR_NOT_FOUND, "dg_intersect: pair %u (%d, %d) names a vertex that is not there",
                        (unsigned)ctl[1], (int)pr[0], (int)pr[1]);
    }
done:
    return st;
}

/* =========================================================================
   Results that follow the graph (manual section 18)   >>result
   =========================================================================
   A result keeps its answer on the device: BFS and SSSP distances (float; BFS levels too)
   with a trimming flag and a stamp per vertex in one data buffer (layout DG_RES_* in
   kernels/00_shared.h, kernels/80_result.cl), component labels, or ranks. An update takes in
   the graph's change log (dg__clog) past the last entry it saw: BFS/SSSP trim, repair and
   propagate from the vertices the changes touched; components hook the inserted edges into
   the old labels; PageRank starts from the old ranks. Anything else runs from nothing. */
#define DG__RES_GROUPS 4096               /* trimming: work-groups (one suspect each at a time) */
#define DG__RES_TEAMS_MIN 256             /* propagation: teams of DG_RES_TEAM work-items, at least */
#define DG__RES_TEAMS_MAX 16384           /*   and at most (grown with the frontier) */
#define DG__RES_BATCH_MIN 4               /* propagation rounds queued before the first read-back */
#define DG__RES_BATCH_MAX 64              /*   and at most between two */
#define DG__RES_LOCAL_LIMIT 2048          /* propagation in one work-group while the frontier is this small */
#define DG__RES_LOCAL_ROUNDS 1024         /*   for at most this many rounds a launch */
#define DG__RES_LOCAL_EDGES 16384         /*   a round whose lists hold more entries goes to all work-groups */
static cl_uint dg__res_local_limit = DG__RES_LOCAL_LIMIT;   /* (test_result lowers them: both paths run) */
static cl_uint dg__res_local_edges = DG__RES_LOCAL_EDGES;
#define DG__RES_BUDGET 2                  /* BFS, SSSP: dg_result_desc.budget's default, and the least */
#define DG__RES_BUDGET_MIN_MS 0.5         /*   full-run time it multiplies (ms) */
#define DG__RES_CHANGE_MS 0.00025         /* BFS, SSSP: host time to read one change (ms, measured) */
#define DG__RES_GAVE_UP "the update ran past its budget (dg_result_desc.budget x the last full run)"
#define DG__RES_FULL 16                   /* more changes than arcs / 16 (and > DG__RES_FULL_MIN): */
#define DG__RES_FULL_MIN 4096             /* a fresh run is cheaper */
struct dg_result {
    dg_graph *g;                  /* NULL once the graph is destroyed */
    dg_allocator alloc;           /* the graph's, to free the handle after it */
    dg_result_desc desc;
    struct dg_result *next;       /* the graph's list of live results */
    uint64_t seq;                 /* the first change of the graph's log not taken in */
    int valid;                    /* holds an answer (0: the next update runs from nothing) */
    size_t n;                     /* the id bound the answer covers */
    size_t cap;                   /* BFS, SSSP: ids the data buffer's layout holds */
    uint32_t round;               /* BFS, SSSP: the stamp of the last pass */
    uint32_t cnt0[3];             /* BFS, SSSP: propagation's first counters, uploaded from here */
    double full_ms;               /* BFS, SSSP: host time of the last run from nothing */
    double budget_at;             /* BFS, SSSP: dg__now_ms() past which an update gives up */
    dg__buf data;                 /* BFS, SSSP: the DG_RES_* layout; labels; ranks */
    dg__buf fresh, all, cnt, out; /* trimming's lists, propagation's counters, BFS levels out */
    dg__buf tcnt;                 /* trimming's counters */
    dg__buf arcs;                 /* inserted arcs relaxed alone (unit weights) */
    dg__buf cvis, ctag, cuf, clist[2], ccnt, ccut;   /* components: the search around removals */
    uint32_t cstamp;              /*   its last stamp */
    dg_frontier f[2];             /* suspects / boundary and propagation frontiers (views) */
};

static void dg__res_free_device(dg_result *r) {
    dg__dev *d = r->g ? r->g->dev : NULL;
    int i;
    if (!d) return;
    dg__buf_free(d, &r->data); dg__buf_free(d, &r->fresh); dg__buf_free(d, &r->all);
    dg__buf_free(d, &r->cnt); dg__buf_free(d, &r->out); dg__buf_free(d, &r->tcnt); dg__buf_free(d, &r->arcs);
    dg__buf_free(d, &r->cvis); dg__buf_free(d, &r->ctag); dg__buf_free(d, &r->cuf); dg__buf_free(d, &r->clist[0]);
    dg__buf_free(d, &r->clist[1]); dg__buf_free(d, &r->ccnt); dg__buf_free(d, &r->ccut);
    for (i = 0; i < 2; i++) {
        dg__buf_free(d, &r->f[i].ids);
        if (r->f[i].cnt) { clReleaseMemObject(r->f[i].cnt); d->bytes -= 4; r->f[i].cnt = NULL; }
    }
}
static void dg__results_detach(dg_graph *g) {
    dg_result *r;
    for (r = g->clog.results; r; r = r->next) { dg__res_free_device(r); r->g = NULL; }
    g->clog.results = NULL;
}
/* Drops the log entries every live result has seen. */
static void dg__clog_trim(dg_graph *g) {
    dg__clog *c = &g->clog;
    uint64_t lo = c->base + c->n;
    size_t k;
    dg_result *r;
    for (r = c->results; r; r = r->next)
        if (r->valid && r->seq >= c->lost && r->seq < lo) lo = r->seq;
    k = (size_t)(lo - c->base);
    if (!k) return;
    memmove(c->e, c->e + k, (c->n - k) * sizeof *c->e);
    c->n -= k;
    c->base = lo;
}

DG_API dg_status dg_result_create(dg_graph *g, const dg_result_desc *desc, dg_result **out) {
    dg_status st = DG_OK;
    dg_result *r;
    int i;
    if (out) *out = NULL;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if (!desc || !out) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_result_create: NULL %s", desc ? "out" : "desc");
    if (desc->kind < DG_RESULT_BFS || desc->kind > DG_RESULT_PAGERANK)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_result_create: unknown kind %d", (int)desc->kind);
    if ((desc->kind == DG_RESULT_BFS || desc->kind == DG_RESULT_SSSP) && !dg__alive(g, desc->source))
        return dg__fail(g, DG_ERR_NOT_FOUND, "dg_result_create: no vertex %d (the source)", (int)desc->source);
    if (g->id_bound > 0x7fffffffu) return dg__fail(g, DG_ERR_LIMIT, "dg_result_create: too many vertex ids");
    if ((st = dg__sync(g)) != DG_OK) return st;
    if (!(r = (dg_result *)dg__alloc(g, sizeof *r))) return dg__oom(g, "dg_result_create");
    memset(r, 0, sizeof *r);
    r->g = g;
    r->alloc = g->desc.allocator;
    r->desc = *desc;
    r->desc.pagerank.stats = NULL;
    for (i = 0; i < 2; i++) {
        r->f[i].g = g;
        r->f[i].n_known = 1;
        DG__TRY(dg__cl_buffer(g, CL_MEM_READ_WRITE, 4, "result frontier count", &r->f[i].cnt));
        g->dev->bytes += 4;
    }
    r->next = g->clog.results;
    g->clog.results = r;
    r->seq = g->clog.base + g->clog.n;
    *out = r;
    return DG_OK;
done:
    dg__res_free_device(r);
    dg__free(g, r);
    return st;
}

DG_API void dg_result_destroy(dg_result *r) {
    dg_result **p;
    dg_allocator a;
    if (!r) return;
    if (r->g) {
        for (p = &r->g->clog.results; *p; p = &(*p)->next)
            if (*p == r) { *p = r->next; break; }
        dg__res_free_device(r);
        dg__clog_trim(r->g);
    }
    a = r->alloc;
    dg__free_with(&a, r);
}

/* Fills n words of m from word `at` with v. */
static dg_status dg__fill_words(dg_graph *g, cl_mem m, uint32_t v, size_t at, size_t n) {
    cl_int e = n ? clEnqueueFillBuffer(g->dev->queue, m, &v, 4, at * 4, n * 4, 0, NULL, NULL) : CL_SUCCESS;
    return e == CL_SUCCESS ? DG_OK : dg__clfail(g, e, "clEnqueueFillBuffer");
}

/* BFS, SSSP: the data buffer holds at least n ids. keep: the old distances stay (new ids get
   INFINITY; nothing moves while the layout has room); else every distance is INFINITY. Flags
   and stamps start at 0 with a new layout. */
static dg_status dg__res_layout(dg_graph *g, dg_result *r, size_t n, int keep) {
    dg_status st = DG_OK;
    dg__buf nb;
    size_t cap = r->cap;
    uint32_t hdr[DG_RES_HDR];
    const uint32_t inf = 0x7f800000u;
    nb.m = NULL; nb.cap = 0;
    if (keep && r->data.m && cap >= n) {
        if (n > r->n) DG__TRY(dg__fill_words(g, r->data.m, inf, DG_RES_HDR + r->n, n - r->n));
        return DG_OK;
    }
    if (!r->data.m || cap < n) {
        cap = n + n / 2 + 64;
        DG__TRY(dg__buf_fit(g, &nb, (DG_RES_HDR + 3 * cap) * 4));
        if (keep && r->data.m && r->n)
            DG__CL(clEnqueueCopyBuffer(g->dev->queue, r->data.m, nb.m, DG_RES_HDR * 4, DG_RES_HDR * 4, r->n * 4, 0, NULL, NULL));
        dg__buf_free(g->dev, &r->data);
        r->data = nb;
        nb.m = NULL;
    } else {
        keep = 0;
    }
    r->cap = cap;
    hdr[DG_RES_N] = (uint32_t)cap;
    hdr[DG_RES_UNIT] = r->desc.kind == DG_RESULT_BFS || !g->desc.weighted;
    hdr[DG_RES_ROUND] = 0;
    DG__TRY(dg__clwrite(g, r->data.m, hdr, sizeof hdr));
    DG__TRY(dg__fill_words(g, r->data.m, inf, DG_RES_HDR + (keep ? r->n : 0), cap - (keep ? r->n : 0)));
    DG__TRY(dg__fill_words(g, r->data.m, 0, DG_RES_HDR + cap, 2 * cap));
    r->round = 0;
done:
    dg__buf_free(g->dev, &nb);
    return st;
}
/* Room for `need` more stamps: all cleared (the round back to 0) when they would wrap. */
static dg_status dg__res_stamps(dg_graph *g, dg_result *r, uint32_t need) {
    dg_status st;
    if (r->round <= 0xffffffffu - need) return DG_OK;
    if ((st = dg__fill_words(g, r->data.m, 0, DG_RES_HDR + 2 * r->cap, r->cap)) != DG_OK) return st;
    r->round = 0;
    return DG_OK;
}
/* The next pass's stamp (stamps cleared when they would wrap). */
static dg_status dg__res_next_round(dg_graph *g, dg_result *r) {
    dg_status st;
    if (r->round == 0xffffffffu) {
        if ((st = dg__fill_words(g, r->data.m, 0, DG_RES_HDR + 2 * r->cap, r->cap)) != DG_OK) return st;
        r->round = 0;
    }
    ++r->round;
    return dg__fill_words(g, r->data.m, r->round, DG_RES_ROUND, 1);
}

/* Why the update must run from nothing, or NULL: kind-independent reasons. */
static const char *dg__res_full_reason(const dg_graph *g, const dg_result *r) {
    uint64_t k = g->clog.base + g->clog.n - r->seq;
    if (!r->valid) return "no answer yet (the first update, or the last one failed)";
    if (r->seq < g->clog.lost) return "changes were dropped unseen (a file was loaded, or more changed than the log holds)";
    if (k > DG__RES_FULL_MIN && k * DG__RES_FULL > g->narcs) return "more changes than a sixteenth of the arcs";
    return NULL;
}

/* The ids a[0..n) (each below the id bound) without repeats, in their first order: O(n)
   with a bitmap of the id bound (seen: zero on entry and on return). */
static size_t dg__res_unique(int32_t *a, size_t n, uint8_t *seen) {
    size_t i, m = 0;
    for (i = 0; i < n; i++) {
        const uint32_t v = (uint32_t)a[i];
        if (seen[v >> 3] & (1u << (v & 7))) continue;
        seen[v >> 3] |= (uint8_t)(1u << (v & 7));
        a[m++] = a[i];
    }
    for (i = 0; i < m; i++) seen[(uint32_t)a[i] >> 3] = 0;
    return m;
}
/* The graph's bitmap for dg__res_unique, clear, a bit per id (kept between updates). */
static uint8_t *dg__res_seen(dg_graph *g) {
    dg__clog *c = &g->clog;
    size_t need = g->id_bound / 8 + 1;
    if (c->seen_bytes < need) {
        size_t nb = need + need / 2;
        if (!dg__grow(g, (void **)&c->seen, c->seen_bytes, nb, 1)) return NULL;
        memset(c->seen + c->seen_bytes, 0, nb - c->seen_bytes);
        c->seen_bytes = nb;
    }
    return c->seen;
}

/* The lists an update of distances starts from, out of the log entries past r->seq: push
   (tails of inserted arcs and changed weights; with unit weights the inserted arcs go to
   arcs instead, as pairs), suspects (heads of removed arcs and changed weights), removed
   vertices; *src_gone when the source was removed (and is back). */
typedef struct dg__res_lists { int32_t *push, *sus, *rem, *arcs; size_t np, ns, nr, na; int src_gone; } dg__res_lists;
typedef struct dg__res_ev_lists { int32_t *pairs, *ends, *cut; size_t np, ne, nc, nr; } dg__res_ev_lists;
static dg_status dg__res_events(dg_graph *g, const dg_result *r, dg__res_ev_lists *L);
static dg_status dg__res_scan(dg_graph *g, const dg_result *r, dg__res_lists *L, size_t *changes) {
    const dg__clog *c = &g->clog;
    size_t i = (size_t)(r->seq - c->base), m = c->n - i, j;
    const int und = g->nstores == 1, unit = r->desc.kind == DG_RESULT_BFS || !g->desc.weighted;
    memset(L, 0, sizeof *L);
    *changes = m;
    L->push = (int32_t *)dg__alloc(g, 2 * m * sizeof(int32_t));
    L->sus = (int32_t *)dg__alloc(g, 2 * m * sizeof(int32_t));
    L->rem = (int32_t *)dg__alloc(g, m * sizeof(int32_t));
    L->arcs = unit ? (int32_t *)dg__alloc(g, 4 * m * sizeof(int32_t)) : NULL;
    if (!L->push || !L->sus || !L->rem || (unit && !L->arcs)) return dg__oom(g, "dg_result_update");
    for (j = i; j < c->n; j++) {
        const dg__change *e = &c->e[j];
        if (e->kind == DG__CH_REMOVE) {
            if (e->u == r->desc.source) L->src_gone = 1;
            if (e->u >= 0 && (size_t)e->u < g->id_bound) L->rem[L->nr++] = e->u;
            continue;
        }
        if (unit && (e->kind == DG__CH_WEIGHT || e->kind == DG__CH_INSERT)) continue;   /* (below) */
        if (e->kind != DG__CH_DELETE) {             /* (a change that failed may name any id) */
            if (dg__alive(g, e->u)) L->push[L->np++] = e->u;
            if (und && dg__alive(g, e->v)) L->push[L->np++] = e->v;
        }
        if (e->kind != DG__CH_INSERT) {
            if (dg__alive(g, e->v)) L->sus[L->ns++] = e->v;
            if (und && dg__alive(g, e->u)) L->sus[L->ns++] = e->u;
        }
    }
    if (unit) {    /* every arc weighs 1: weights do not matter, and an inserted arc that still
                      exists is relaxed alone (its tail's other arcs did not change) */
        dg__res_ev_lists C;
        size_t k;
        dg_status st = dg__res_events(g, r, &C);
        if (st != DG_OK) return st;
        for (k = 0; k < C.np; k++) {
            L->arcs[2 * L->na] = C.pairs[2 * k]; L->arcs[2 * L->na + 1] = C.pairs[2 * k + 1]; L->na++;
            if (und) { L->arcs[2 * L->na] = C.pairs[2 * k + 1]; L->arcs[2 * L->na + 1] = C.pairs[2 * k]; L->na++; }
        }
        dg__free(g, C.pairs); dg__free(g, C.ends); dg__free(g, C.cut);
    }
    {
        uint8_t *seen = dg__res_seen(g);
        if (!seen) return dg__oom(g, "dg_result_update");
        L->np = dg__res_unique(L->push, L->np, seen);
        L->ns = dg__res_unique(L->sus, L->ns, seen);
        L->nr = dg__res_unique(L->rem, L->nr, seen);
    }
    return DG_OK;
}
static void dg__res_lists_free(dg_graph *g, dg__res_lists *L) {
    dg__free(g, L->push); dg__free(g, L->sus); dg__free(g, L->rem); dg__free(g, L->arcs);
}

/* Uploads ids[0..n) into frontier f (its length known), not blocking: ids must stay until the
   queue has finished (dg__res_dist finishes it before freeing its lists). */
static dg_status dg__res_frontier_set(dg_graph *g, dg_frontier *f, const int32_t *ids, size_t n) {
    dg_status st = DG_OK;
    DG__TRY(dg__buf_fit(g, &f->ids, n * 4));
    if (n) DG__CL(clEnqueueWriteBuffer(g->dev->queue, f->ids.m, CL_FALSE, 0, n * 4, ids, 0, NULL, NULL));
    f->n = n; f->n_known = 1;
done:
    return st;
}

/* BFS, SSSP from nothing: the library's own search, its distances copied into the layout. */
static dg_status dg__res_dist_full(dg_graph *g, dg_result *r, dg_result_stats *S) {
    dg_status st = DG_OK;
    size_t n = g->id_bound;
    cl_uint un = (cl_uint)n;
    DG__TRY(dg__res_layout(g, r, n, 0));
    if (r->desc.kind == DG_RESULT_BFS) {
        dg_bfs_options o;
        dg_bfs_stats bs;
        dg__bfs_state *b;
        memset(&o, 0, sizeof o);
        o.strategy = DG_BFS_DIRECTION_OPT;    /* its levels are in b->b.dist */
        o.stats = &bs;
        DG__TRY(dg_bfs(g, r->desc.source, NULL, &o));
        b = (dg__bfs_state *)g->dev->mod[DG__MOD_BFS].state;
        DG__TRY(dg__run(g, DG__K_RES_FROM_LEVELS, n, DG__A(b->b.dist.m), DG__A(r->data.m), DG__A(un), DG__END));
        S->rounds = bs.levels;
        S->edges = bs.edges_inspected;
        S->device_ms = bs.device_ms;
    } else {
        dg__sssp_state *ss;
        DG__TRY(dg_sssp(g, r->desc.source, NULL, NULL));   /* (its stats would read dist back) */
        ss = (dg__sssp_state *)g->dev->mod[DG__MOD_SSSP].state;
        if (n) DG__CL(clEnqueueCopyBuffer(g->dev->queue, ss->b.dist.m, r->data.m, 0, DG_RES_HDR * 4, n * 4, 0, NULL, NULL));
    }
done:
    return st;
}

/* BFS, SSSP after changes: trimming, repair, propagation (kernels/80_result.cl). */
static dg_status dg__res_dist_step(dg_graph *g, dg_result *r, const dg__res_lists *L, dg_result_stats *S) {
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    size_t n = g->id_bound, nsus = L->ns, ninv = 0;
    cl_kernel kc = NULL, kp = NULL;
    cl_int mode = r->desc.kind == DG_RESULT_BFS || !g->desc.weighted ? DG_RES_W_UNIT
                : g->nstores == 1 ? DG_RES_W_ENTRY : DG_RES_W_LOOKUP;
    cl_int src = (cl_int)r->desc.source;
    cl_mem w = g->st[0].wpool ? d->st[0].wpool.m : NULL;
    dg_frontier *sus = &r->f[0], *pf = &r->f[1];
    DG__TRY(dg__res_layout(g, r, n, 1));
    DG__TRY(dg__kernel(g, DG__K_RES_CHECK, 0, &kc));
    DG__TRY(dg__kernel(g, DG__K_RES_PUSH, 0, &kp));
    DG__TRY(dg__buf_fit(g, &r->cnt, 12));
    DG__TRY(dg__buf_fit(g, &r->tcnt, 8));
    if (nsus) DG__TRY(dg__fill_words(g, r->tcnt.m, 0, 0, 2));
    if (L->nr) {                                  /* removed vertices lose their distance */
        cl_uint m = (cl_uint)L->nr;
        DG__TRY(dg__res_frontier_set(g, sus, L->rem, L->nr));
        DG__TRY(dg__run(g, DG__K_RES_RESET, m, DG__A(sus->ids.m), DG__A(m), DG__A(r->data.m), DG__END));
    }
    /* 1. trimming, a launch and a read-back a round: suspects without support become invalid,
       their dependents the next round's suspects */
    DG__TRY(dg__res_frontier_set(g, sus, L->sus, nsus));
    while (nsus) {
        cl_uint m = (cl_uint)nsus, stamp;
        uint32_t tc[2];
        dg__buf t;
        S->rounds++;
        DG__TRY(dg__res_stamps(g, r, 1));
        stamp = ++r->round;
        DG__TRY(dg__buf_fit(g, &r->fresh, (n ? n : 1) * 4));   /* (a round lists a vertex once) */
        DG__TRY(dg__buf_grow(g, &r->all, (ninv + nsus) * 4, ninv * 4));
        DG__TRY(dg__fill_words(g, r->tcnt.m, 0, 0, 1));
        DG__TRY(dg__args(g, kc, dg__adj(1, 0), DG__A(w), DG__A(d->st[0].pool.m), DG__A(d->st[0].idx.m),
                         DG__A(d->st[0].latab.m), DG__A(w), DG__A(mode), DG__A(src), DG__A(sus->ids.m), DG__A(m),
                         DG__A(r->data.m), DG__A(r->fresh.m), DG__A(r->all.m), DG__A(r->tcnt.m), DG__A(stamp), DG__END));
        DG__TRY(dg__launch(g, kc, (nsus < DG__RES_GROUPS ? nsus : DG__RES_GROUPS) * d->wg, d->wg));
        DG__CL(clEnqueueReadBuffer(d->queue, r->tcnt.m, CL_TRUE, 0, 8, tc, 0, NULL, NULL));
        nsus = tc[0];
        ninv = tc[1];
        t = sus->ids; sus->ids = r->fresh; r->fresh = t;      /* the next suspects */
        if (nsus && dg__now_ms() > r->budget_at) { S->reason = DG__RES_GAVE_UP; goto done; }
    }
    S->invalidated = ninv;
    /* 3. propagation from the boundary and the tails of what was inserted. While the
       frontier holds at most DG__RES_LOCAL_LIMIT vertices, up to DG__RES_LOCAL_ROUNDS rounds
       run in one work-group a launch (then one read-back of {rounds, length}); a larger
       frontier goes to rounds queued DG__RES_BATCH_MIN, then twice as many (up to
       DG__RES_BATCH_MAX) between read-backs of its length (rounds past the last one find an
       empty frontier). Both keep the same lists and rotating counters. */
    {
        cl_mem lists[2];
        size_t total = 0, teams = DG__RES_TEAMS_MIN, batch = DG__RES_BATCH_MIN, j;
        cl_uint rr = 0, limit = dg__res_local_limit, maxr = DG__RES_LOCAL_ROUNDS, emax = dg__res_local_edges;
        int queue_next = 0, hubs = 0, first = 1;
        const size_t cap = n + L->np + L->na;           /* a round lists a vertex once (+ the tails) */
        cl_kernel kl = NULL;
        DG__TRY(dg__kernel(g, DG__K_RES_PUSH_LOCAL, 0, &kl));
        DG__TRY(dg__buf_fit(g, &pf->ids, (cap ? cap : 1) * 4));
        DG__TRY(dg__buf_fit(g, &sus->ids, (cap ? cap : 1) * 4));
        if (L->np)         /* (not blocking: a blocking read-back follows before L is freed) */
            DG__CL(clEnqueueWriteBuffer(d->queue, pf->ids.m, CL_FALSE, 0, L->np * 4, L->push, 0, NULL, NULL));
        lists[0] = pf->ids.m; lists[1] = sus->ids.m;
        DG__TRY(dg__buf_fit(g, &r->out, 8));
        r->cnt0[0] = (uint32_t)L->np; r->cnt0[1] = r->cnt0[2] = 0;   /* (one upload, not blocking) */
        DG__CL(clEnqueueWriteBuffer(d->queue, r->cnt.m, CL_FALSE, 0, sizeof r->cnt0, r->cnt0, 0, NULL, NULL));
        /* 2. repair: the invalid lose their distance; their in-neighbours with one (the
           boundary) join the tails in the first frontier, on the device */
        if (ninv) {
            cl_uint m = (cl_uint)ninv, stamp;
            DG__TRY(dg__res_stamps(g, r, 1));
            stamp = ++r->round;
            DG__TRY(dg__run(g, DG__K_RES_REPAIR, (ninv < DG__RES_GROUPS ? ninv : DG__RES_GROUPS) * d->wg, dg__adj(1, 0),
                               DG__A(r->all.m), DG__A(m), DG__A(r->data.m), DG__A(pf->ids.m), DG__A(r->cnt.m), DG__A(stamp),
                               DG__END));
        } else if (!L->np && !L->na) {
            goto done;                            /* nothing to propagate */
        }
        if (L->na) {                              /* inserted arcs (unit weights): relaxed alone */
            cl_uint m = (cl_uint)L->na, stamp;
            DG__TRY(dg__buf_fit(g, &r->arcs, L->na * 8));
            DG__CL(clEnqueueWriteBuffer(d->queue, r->arcs.m, CL_FALSE, 0, L->na * 8, L->arcs, 0, NULL, NULL));
            DG__TRY(dg__res_stamps(g, r, 1));
            stamp = ++r->round;
            DG__TRY(dg__run(g, DG__K_RES_SEED, L->na, DG__A(r->arcs.m), DG__A(m), DG__A(r->data.m), DG__A(pf->ids.m),
                            DG__A(r->cnt.m), DG__A(stamp), DG__END));
        }
        while (first || total) {
            cl_uint r3 = rr % 3;
            DG__TRY(dg__res_stamps(g, r, DG__RES_BATCH_MAX > DG__RES_LOCAL_ROUNDS ? DG__RES_BATCH_MAX : DG__RES_LOCAL_ROUNDS));
            if (first || (total <= limit && !queue_next)) {
                cl_uint stamp0 = r->round + 1;
                uint32_t stat[2];
                first = 0;
                DG__TRY(dg__args(g, kl, dg__adj(0, 0), DG__A(w), DG__A(lists[rr & 1]), DG__A(lists[(rr + 1) & 1]),
                                 DG__A(r->cnt.m), DG__A(r3), DG__A(stamp0), DG__A(maxr), DG__A(limit), DG__A(emax), DG__A(r->out.m),
                                 DG__A(r->data.m), DG__END));
                DG__TRY(dg__launch(g, kl, d->wg, d->wg));
                DG__CL(clEnqueueReadBuffer(d->queue, r->out.m, CL_TRUE, 0, 8, stat, 0, NULL, NULL));
                r->round += stat[0];
                rr += stat[0];
                S->rounds += stat[0];
                total = stat[1];
                /* no round run on a small frontier: its lists held more than emax entries
                   (hubs, or many lists), so it goes to a round balanced over the edges, and so
                   do this update's large frontiers */
                queue_next = stat[0] == 0 && total && total <= limit;
                hubs |= queue_next;
            } else if (queue_next || hubs) {      /* one round balanced over the edges (hubs) */
                dg_frontier *fi = (rr & 1) ? sus : pf, *fo = (rr & 1) ? pf : sus;
                cl_kernel ka = NULL;
                DG__TRY(dg__kernel(g, DG__K_RES_PROPAGATE, 0, &ka));
                DG__TRY(dg__res_next_round(g, r));
                fi->n = total; fi->n_known = 1;
                DG__TRY(dg__advance(g, ka, 0, fi, fo, r->data.m, NULL, &S->edges));
                DG__TRY(dg__frontier_n(fo));
                lists[0] = pf->ids.m; lists[1] = sus->ids.m;
                rr++;
                S->rounds++;
                total = fo->n;
                DG__TRY(dg__fill_words(g, r->cnt.m, (uint32_t)total, rr % 3, 1));
                DG__TRY(dg__fill_words(g, r->cnt.m, 0, (rr + 1) % 3, 1));
                queue_next = 0;
            } else {
                while (teams < total && teams < DG__RES_TEAMS_MAX) teams *= 2;
                for (j = 0; j < batch; j++, rr++) {
                    cl_uint stamp = ++r->round;
                    r3 = rr % 3;
                    DG__TRY(dg__args(g, kp, dg__adj(0, 0), DG__A(w), DG__A(lists[rr & 1]), DG__A(lists[(rr + 1) & 1]),
                                     DG__A(r->cnt.m), DG__A(r3), DG__A(stamp), DG__A(r->data.m), DG__END));
                    DG__TRY(dg__launch(g, kp, teams * DG_RES_TEAM, d->wg));
                }
                S->rounds += (uint32_t)batch;
                r3 = rr % 3;
                {
                    uint32_t c;
                    DG__CL(clEnqueueReadBuffer(d->queue, r->cnt.m, CL_TRUE, r3 * 4, 4, &c, 0, NULL, NULL));
                    total = c;
                }
                if (batch < DG__RES_BATCH_MAX) batch *= 2;
            }
            if (total && dg__now_ms() > r->budget_at) { S->reason = DG__RES_GAVE_UP; goto done; }
        }
    }
done:   /* (the header's DG_RES_ROUND is written before each round that reads it: dg__res_next_round) */
    return st;
}

static dg_status dg__res_dist(dg_graph *g, dg_result *r, void *values, dg_result_stats *S) {
    dg_status st = DG_OK;
    dg__res_lists L;
    size_t n = g->id_bound;
    const char *why;
    memset(&L, 0, sizeof L);
    if (!dg__alive(g, r->desc.source))
        return dg__fail(g, DG_ERR_NOT_FOUND, "dg_result_update: no vertex %d (the source was removed)", (int)r->desc.source);
    why = dg__res_full_reason(g, r);
    if (!why && r->desc.kind == DG_RESULT_SSSP && g->wmin < 0.0f)
        why = "a negative weight was given (dg_sssp checks every weight)";
    if (!why && r->desc.budget >= 0.0f && r->full_ms > 0.0 && (double)(g->clog.base + g->clog.n - r->seq) > DG__RES_FULL_MIN &&
        (double)(g->clog.base + g->clog.n - r->seq) * DG__RES_CHANGE_MS > r->full_ms)
        why = "more changes than the time of the last full run pays for (reading them alone)";
    if (!why) {
        DG__TRY(dg__res_scan(g, r, &L, &S->changes));
        if (L.src_gone) why = "the source was removed (its id is back)";
    }
    if (!why) {
        const double f = r->desc.budget == 0.0f ? DG__RES_BUDGET : (double)r->desc.budget;
        r->budget_at = f < 0.0 ? HUGE_VAL
                     : dg__now_ms() + f * (r->full_ms > DG__RES_BUDGET_MIN_MS ? r->full_ms : DG__RES_BUDGET_MIN_MS);
        DG__TRY(dg__res_dist_step(g, r, &L, S));
        if (S->reason[0]) why = S->reason;
    }
    if (why) {
        /* timed for the budget of later updates; a result's first run may build kernels
           (its own, the search's), so it runs twice and the second is timed */
        int twice = r->full_ms == 0.0;
        double t0;
        memset(S, 0, sizeof *S);
        S->changes = (size_t)(g->clog.base + g->clog.n - r->seq);
        do {
            t0 = dg__now_ms();
            DG__TRY(dg__res_dist_full(g, r, S));
            DG__CL(clFinish(g->dev->queue));
        } while (twice--);
        r->full_ms = dg__now_ms() - t0;
        S->full = 1;
        S->reason = why;
    }
    if (values && n) {
        if (r->desc.kind == DG_RESULT_BFS) {
            cl_uint un = (cl_uint)n;
            DG__TRY(dg__buf_fit(g, &r->out, n * 4));
            DG__TRY(dg__run(g, DG__K_RES_TO_LEVELS, n, DG__A(r->data.m), DG__A(r->out.m), DG__A(un), DG__END));
            DG__TRY(dg__read_out(g, r->out.m, 0, n * 4, values));
        } else {
            DG__TRY(dg__read_out(g, r->data.m, DG_RES_HDR * 4, n * 4, values));
        }
    }
done:
    if (g->dev) {                                /* the lists' uploads are done with them */
        cl_int e = clFinish(g->dev->queue);
        if (st == DG_OK && e != CL_SUCCESS) st = dg__clfail(g, e, "clFinish");
    }
    dg__res_lists_free(g, &L);
    return st;
}

/* Components (and BFS, SSSP with unit weights: dg__res_scan). The log past r->seq: the
   inserted edges that still exist (the last change of the edge is its insertion, and neither
   end was removed after it) as pairs, and the ends of removed edges and the removed vertices (their components may have
   split). Changes that name ids no longer live are dropped. */
typedef struct dg__res_ev { int32_t a, b, kind; uint32_t i; } dg__res_ev;
static int dg__cmp_res_ev(const void *x, const void *y) {
    const dg__res_ev *p = (const dg__res_ev *)x, *q = (const dg__res_ev *)y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    return p->i < q->i ? -1 : p->i > q->i;
}
/* The index of the last removal of v in rem[0..nr) (sorted by vertex, then index), or -1. */
static int64_t dg__res_last_removal(const dg__res_ev *rem, size_t nr, int32_t v) {
    size_t lo = 0, hi = nr;
    while (lo < hi) {                             /* the first entry past v */
        size_t mid = lo + (hi - lo) / 2;
        if (rem[mid].a <= v) lo = mid + 1; else hi = mid;
    }
    return lo && rem[lo - 1].a == v ? (int64_t)rem[lo - 1].i : -1;
}
static dg_status dg__res_events(dg_graph *g, const dg_result *r, dg__res_ev_lists *L) {
    const dg__clog *c = &g->clog;
    const size_t at = (size_t)(r->seq - c->base), m = c->n - at;
    const int und = g->nstores == 1;
    dg__res_ev *ev = NULL, *rem = NULL;
    size_t i, j, ne = 0, nr = 0;
    memset(L, 0, sizeof *L);
    ev = (dg__res_ev *)dg__alloc(g, (m + 1) * sizeof *ev);
    rem = (dg__res_ev *)dg__alloc(g, (m + 1) * sizeof *rem);
    L->pairs = (int32_t *)dg__alloc(g, (2 * m + 1) * sizeof(int32_t));
    L->ends = (int32_t *)dg__alloc(g, (2 * m + 1) * sizeof(int32_t));
    L->cut = (int32_t *)dg__alloc(g, (2 * m + 1) * sizeof(int32_t));
    if (!ev || !rem || !L->pairs || !L->ends || !L->cut) {
        dg__free(g, ev); dg__free(g, rem);
        return dg__oom(g, "dg_result_update");
    }
    for (j = at; j < c->n; j++) {
        const dg__change *e = &c->e[j];
        const uint32_t idx = (uint32_t)(j - at);
        if (e->kind == DG__CH_REMOVE) {
            rem[nr].a = e->u; rem[nr].b = 0; rem[nr].kind = e->kind; rem[nr++].i = idx;
            if (e->u >= 0 && (size_t)e->u < g->id_bound) L->ends[L->ne++] = e->u;
            continue;
        }
        if (e->kind == DG__CH_WEIGHT || e->u == e->v) continue;   /* neither joins nor splits */
        ev[ne].a = und && e->v < e->u ? e->v : e->u;
        ev[ne].b = und && e->v < e->u ? e->u : e->v;
        ev[ne].kind = e->kind; ev[ne++].i = idx;
        if (e->kind == DG__CH_DELETE) {               /* (a change that failed may name any id) */
            if (e->u >= 0 && (size_t)e->u < g->id_bound) L->ends[L->ne++] = e->u;
            if (e->v >= 0 && (size_t)e->v < g->id_bound) L->ends[L->ne++] = e->v;
        }
    }
    if (L->ne && ne > 1) qsort(ev, ne, sizeof *ev, dg__cmp_res_ev);   /* (insert-only: every edge stays) */
    if (nr > 1) qsort(rem, nr, sizeof *rem, dg__cmp_res_ev);
    for (i = 0; i < ne; i++) {
        const dg__res_ev *e = &ev[i];
        if (L->ne && i + 1 < ne && ev[i + 1].a == e->a && ev[i + 1].b == e->b) continue;   /* not the last */
        if (e->kind == DG__CH_DELETE && dg__alive(g, e->a) && dg__alive(g, e->b)) {   /* still removed */
            L->cut[2 * L->nc] = e->a; L->cut[2 * L->nc + 1] = e->b; L->nc++;
        }
        if (e->kind != DG__CH_INSERT || !dg__alive(g, e->a) || !dg__alive(g, e->b)) continue;
        if (dg__res_last_removal(rem, nr, e->a) > (int64_t)e->i || dg__res_last_removal(rem, nr, e->b) > (int64_t)e->i)
            continue;
        L->pairs[2 * L->np] = e->a; L->pairs[2 * L->np + 1] = e->b; L->np++;
    }
    if (L->ne) {
        uint8_t *seen = dg__res_seen(g);
        if (!seen) { dg__free(g, ev); dg__free(g, rem); return dg__oom(g, "dg_result_update"); }
        L->ne = dg__res_unique(L->ends, L->ne, seen);
    }
    L->nr = nr;
    dg__free(g, ev); dg__free(g, rem);
    return DG_OK;
}

/* Removed edges without removed vertices: a search from their ends (kernels/70_graph.cl,
   dg_cc_cut_*), at most DG__RES_CUT_ROUNDS rounds while the balls hold at most id bound /
   DG__RES_CUT_SHARE vertices; *ok = 1 when the two ends of every removed edge reached each
   other (then no component split). */
#define DG__RES_CUT_MAX 65536             /* removed edges searched around, at most */
#define DG__RES_CUT_ROUNDS 8
#define DG__RES_CUT_SHARE 64
static dg_status dg__res_cut(dg_graph *g, dg_result *r, const dg__res_ev_lists *L, dg_result_stats *S, int *ok) {
    dg__dev *d = g->dev;
    dg_status st = DG_OK;
    size_t n = g->id_bound, s, teams = 4096;
    cl_uint nc = (cl_uint)L->nc, base, round, cur = 0, limit = (cl_uint)(n / DG__RES_CUT_SHARE + 64);
    cl_int lone = g->nstores == 1;
    uint32_t c4[4];
    cl_kernel kr = NULL;
    *ok = 0;
    if (r->cvis.cap < n * 4) {                    /* (new: every stamp 0) */
        DG__TRY(dg__buf_fit(g, &r->cvis, n * 4));
        DG__TRY(dg__fill_words(g, r->cvis.m, 0, 0, r->cvis.cap / 4));
        r->cstamp = 0;
    }
    if (r->cstamp > 0xffffffffu - 2 * DG__RES_CUT_ROUNDS - 2) {
        DG__TRY(dg__fill_words(g, r->cvis.m, 0, 0, r->cvis.cap / 4));
        r->cstamp = 0;
    }
    base = r->cstamp + 1;
    r->cstamp = base + DG__RES_CUT_ROUNDS;
    DG__TRY(dg__buf_fit(g, &r->ctag, n * 4));
    DG__TRY(dg__buf_fit(g, &r->cuf, n * 4));
    DG__TRY(dg__buf_fit(g, &r->clist[0], n * 4));
    DG__TRY(dg__buf_fit(g, &r->clist[1], n * 4));
    DG__TRY(dg__buf_fit(g, &r->ccnt, 16));
    DG__TRY(dg__buf_fit(g, &r->ccut, (size_t)nc * 8));
    DG__TRY(dg__fill_words(g, r->ccnt.m, 0, 0, 4));
    DG__CL(clEnqueueWriteBuffer(d->queue, r->ccut.m, CL_FALSE, 0, (size_t)nc * 8, L->cut, 0, NULL, NULL));
    DG__TRY(dg__run(g, DG__K_CC_CUT_SEED, 2 * (size_t)nc, dg__adj(0, 0), DG__A(r->ccut.m), DG__A(nc), DG__A(r->cvis.m),
                    DG__A(r->ctag.m), DG__A(r->cuf.m), DG__A(r->clist[0].m), DG__A(r->ccnt.m), DG__A(base), DG__A(lone),
                    DG__END));
    DG__TRY(dg__kernel(g, DG__K_CC_CUT_ROUND, 0, &kr));
    for (round = 1; round <= DG__RES_CUT_ROUNDS; round++) {
        cl_uint stamp = base + round, co = cur ^ 1;
        DG__TRY(dg__fill_words(g, r->ccnt.m, 0, co, 1));
        DG__TRY(dg__fill_words(g, r->ccnt.m, 0, 2, 1));
        for (s = 0; s < (size_t)g->nstores; s++) {
            DG__TRY(dg__args(g, kr, dg__adj((int)s, 0), DG__A(r->clist[cur].m), DG__A(r->cvis.m), DG__A(r->ctag.m),
                             DG__A(r->cuf.m), DG__A(r->clist[co].m), DG__A(r->ccnt.m), DG__A(cur), DG__A(co), DG__A(base),
                             DG__A(stamp), DG__END));
            DG__TRY(dg__launch(g, kr, teams * DG_RES_TEAM, d->wg));
        }
        DG__TRY(dg__run(g, DG__K_CC_CUT_CHECK, nc, DG__A(r->ccut.m), DG__A(nc), DG__A(r->cuf.m), DG__A(r->ccnt.m), DG__END));
        DG__CL(clEnqueueReadBuffer(d->queue, r->ccnt.m, CL_TRUE, 0, 16, c4, 0, NULL, NULL));
        S->rounds++;
        if (c4[3]) break;                         /* an end left alone: a split */
        if (c4[2] == 0) { *ok = 1; break; }
        if (c4[co] == 0 || c4[co] > limit) break; /* a ball died out (a split), or too far */
        cur = co;
    }
done:
    return st;
}

/* Removals past this share of the live vertices in the components they touch: a fresh run
   (its sampling skips the giant component) is cheaper than hooking them again. */
#define DG__RES_CC_SHARE 8
#define DG__RES_CC_LOCAL 8192             /* inserted edges hooked in one work-group, at most */
static size_t dg__res_cc_local = DG__RES_CC_LOCAL;         /* (test_result lowers it: both paths run) */
static int dg__res_cut_on = 1;                              /* (test_result turns it off: both run) */
/* (want_count: the caller asked for stats, so S->components is counted) */
static dg_status dg__res_cc(dg_graph *g, dg_result *r, void *values, dg_result_stats *S, int want_count) {
    dg_status st = DG_OK;
    dg__dev *d = g->dev;
    size_t n = g->id_bound;
    dg__res_ev_lists L;
    const char *why = dg__res_full_reason(g, r);
    dg__graph_state *gs = DG__STATE(g, DG__MOD_GRAPH, dg__graph_state);
    cl_uint un = (cl_uint)n;
    memset(&L, 0, sizeof L);
    if (!gs) return dg__oom(g, "dg_result_update");
    if (!why) {
        uint32_t listed = 0;
        cl_int marks;
        S->changes = (size_t)(g->clog.base + g->clog.n - r->seq);
        DG__TRY(dg__res_events(g, r, &L));
        if (L.nc && !L.nr && L.nc <= DG__RES_CUT_MAX && dg__res_cut_on) {
            int ok = 0;
            DG__TRY(dg__res_cut(g, r, &L, S, &ok));
            if (ok) L.ne = 0;                     /* every removed edge is gone around: no split */
        }
        marks = L.ne > 0;
        if (n > r->n) {                           /* new ids: components of their own */
            cl_uint from = (cl_uint)r->n;
            DG__TRY(dg__buf_grow(g, &r->data, n * 4, r->n * 4));
            DG__TRY(dg__run(g, DG__K_CC_INIT, n - r->n, DG__A(d->dir.m), DG__A(r->data.m), DG__A(from), DG__A(un), DG__END));
        }
        DG__TRY(dg__buf_fit(g, &r->cnt, 4));
        if (marks || g->desc.reuse_ids) DG__TRY(dg__fill_words(g, r->cnt.m, 0, 0, 1));   /* (for dg_cc_reset) */
        DG__TRY(dg__buf_fit(g, &r->all, marks ? n * 4 : 4));
        DG__TRY(dg__buf_fit(g, &r->out, marks ? n * 4 : 4));      /* the marks */
        if (marks) {
            cl_uint ne = (cl_uint)L.ne, nold = (cl_uint)r->n;
            DG__TRY(dg__fill_words(g, r->out.m, 0, 0, n));
            DG__TRY(dg__buf_fit(g, &r->fresh, L.ne * 4));
            DG__TRY(dg__clwrite(g, r->fresh.m, L.ends, L.ne * 4));
            DG__TRY(dg__run(g, DG__K_CC_MARK, L.ne, DG__A(r->fresh.m), DG__A(ne), DG__A(nold), DG__A(r->data.m),
                            DG__A(r->out.m), DG__END));
        }
        /* without marks only a reused id (live, no label) needs mending: removed ids have
           marks (dg_remove_vertex logs them) */
        if (marks || g->desc.reuse_ids) DG__TRY(dg__run(g, DG__K_CC_RESET, n, DG__A(d->dir.m), DG__A(r->data.m), DG__A(r->out.m), DG__A(marks),
                        DG__A(un), DG__A(r->all.m), DG__A(r->cnt.m), DG__END));
        if (marks) DG__TRY(dg__read_u32(g, r->cnt.m, 0, &listed));
        if ((size_t)listed * DG__RES_CC_SHARE > g->nverts && listed > DG__RES_FULL_MIN)
            why = "removals touched components holding more than an eighth of the vertices";
        else if (listed) {                        /* hooking again over their arcs */
            cl_kernel kr = NULL;
            dg_frontier view, *out = &r->f[0];
            DG__TRY(dg__kernel(g, DG__K_CC_RELINK, 0, &kr));
            memset(&view, 0, sizeof view);
            view.g = g; view.ids = r->all; view.n = listed; view.n_known = 1;
            S->invalidated = listed;
            do {
                if (++S->rounds > n + 1) { st = dg__fail(g, DG_ERR_OPENCL, "dg_result_update: no convergence"); goto done; }
                DG__TRY(dg__advance(g, kr, 0, &view, out, r->data.m, NULL, &S->edges));
                DG__TRY(dg__run(g, DG__K_CC_JUMP, n, DG__A(r->data.m), DG__A(un), DG__END));
                DG__TRY(dg__frontier_n(out));
            } while (out->n);
        }
    }
    if (!why && L.np) {                           /* insertions hook the labels' roots */
        cl_uint m = (cl_uint)L.np;
        uint32_t flag = 1;
        DG__TRY(dg__buf_fit(g, &r->fresh, L.np * 8));
        DG__CL(clEnqueueWriteBuffer(d->queue, r->fresh.m, CL_FALSE, 0, L.np * 8, L.pairs, 0, NULL, NULL));
        DG__TRY(dg__buf_fit(g, &gs->b.flag, 4));
        if (L.np <= dg__res_cc_local) {           /* one work-group, no read-back a pass */
            cl_kernel kl = NULL;
            DG__TRY(dg__kernel(g, DG__K_CC_PAIRS_LOCAL, 0, &kl));
            DG__TRY(dg__args(g, kl, DG__A(r->fresh.m), DG__A(m), DG__A(r->data.m), DG__END));
            DG__TRY(dg__launch(g, kl, g->dev->wg, g->dev->wg));
            S->rounds++;
            flag = 0;
        }
        while (flag) {      /* labels only fall: at most as many passes as ids */
            if (++S->rounds > n + 1) { st = dg__fail(g, DG_ERR_OPENCL, "dg_result_update: no convergence"); goto done; }
            DG__TRY(dg__fill_words(g, gs->b.flag.m, 0, 0, 1));
            DG__TRY(dg__run(g, DG__K_CC_PAIRS, L.np, DG__A(r->fresh.m), DG__A(m), DG__A(r->data.m), DG__A(gs->b.flag.m), DG__END));
            DG__TRY(dg__read_u32(g, gs->b.flag.m, 0, &flag));
        }
        DG__TRY(dg__run(g, DG__K_CC_JUMP, n, DG__A(r->data.m), DG__A(un), DG__END));
        S->edges += L.np;
    }
    if (why) {
        S->full = 1;
        S->reason = why;
        S->rounds = 0; S->edges = 0; S->invalidated = 0;
        DG__TRY(dg_components(g, NULL, NULL));
        DG__TRY(dg__buf_fit(g, &r->data, n * 4));
        if (n) DG__CL(clEnqueueCopyBuffer(d->queue, gs->b.comp.m, r->data.m, 0, 0, n * 4, 0, NULL, NULL));
    }
    if (n) DG__TRY(dg__labels_out(g, r->data.m, n, (dg_vertex *)values, want_count ? &S->components : NULL));
done:
    {                                             /* the uploads are done with the lists */
        cl_int e = clFinish(d->queue);
        if (st == DG_OK && e != CL_SUCCESS) st = dg__clfail(g, e, "clFinish");
    }
    dg__free(g, L.pairs); dg__free(g, L.ends); dg__free(g, L.cut);
    return st;
}

/* PageRank: from the last ranks (new ids r0), or from uniform ranks. */
static dg_status dg__res_pr(dg_graph *g, dg_result *r, void *values, dg_result_stats *S) {
    dg_status st = DG_OK;
    const char *why = dg__res_full_reason(g, r);
    dg_pagerank_options o = r->desc.pagerank;
    dg_pagerank_stats ps;
    size_t n = g->id_bound;
    o.stats = &ps;
    S->changes = (size_t)(g->clog.base + g->clog.n - r->seq);
    if (why) { S->full = 1; S->reason = why; }
    DG__TRY(dg__buf_grow(g, &r->data, n * 4, why ? 0 : r->n * 4));
    DG__TRY(dg__pagerank(g, (float *)values, &o, &r->data, why ? 0 : r->n));
    S->rounds = ps.iterations;
    S->edges = (uint64_t)ps.iterations * g->narcs;
done:
    return st;
}

DG_API dg_status dg_result_update(dg_result *r, void *values, dg_result_stats *stats) {
    dg_result_stats S;
    dg_status st;
    dg_graph *g;
    double t0 = dg__now_ms();
    if (!r || !r->g) return DG_ERR_INVALID_ARGUMENT;
    g = r->g;
    memset(&S, 0, sizeof S);
    S.reason = "";
    if ((st = dg__sync(g)) != DG_OK) goto done;
    if (g->id_bound > 0x7fffffffu) { st = dg__fail(g, DG_ERR_LIMIT, "dg_result_update: too many vertex ids"); goto done; }
    dg__timing_reset(g->dev);
    g->dev->timed = stats != NULL;
    switch (r->desc.kind) {
    case DG_RESULT_BFS: case DG_RESULT_SSSP: st = dg__res_dist(g, r, values, &S); break;
    case DG_RESULT_COMPONENTS: st = dg__res_cc(g, r, values, &S, stats != NULL); break;
    default: st = dg__res_pr(g, r, values, &S); break;
    }
    if (st == DG_OK) {
        cl_int e = clFinish(g->dev->queue);
        if (e != CL_SUCCESS) st = dg__clfail(g, e, "clFinish");
    }
    if (st == DG_OK && !(S.full && r->desc.kind == DG_RESULT_BFS)) {
        double ms = dg__timing_ms(g->dev);
        if (ms > 0) S.device_ms += ms;
    }
done:
    if (g->dev) { dg__timing_reset(g->dev); g->dev->timed = 0; }
    r->valid = st == DG_OK;
    if (st == DG_OK) {
        r->seq = g->clog.base + g->clog.n;
        r->n = g->id_bound;
    }
    dg__clog_trim(g);
    S.total_ms = dg__now_ms() - t0;
    if (stats && st == DG_OK) *stats = S;
    return st;
}

#endif /* DYNGRAPH_NO_OPENCL */

/* =========================================================================
   FILE LOADING (dg_load)   >>load
   =========================================================================
   The file is read in DG__LOAD_CHUNK-byte blocks through a small reader that
   hands out one field of the current line at a time and counts lines; no
   line-length limit, nothing but the current block is held. A field (a
   number or a word) may hold up to DG__LOAD_TOKMAX characters. Every edge is
   appended to one growable dg_edge array (doubling); after the whole file
   has parsed, the vertices the file needs are created, and the array goes to
   dg__add_edges_ex as one all-or-nothing batch (repeats keep the smallest
   weight). A parse error therefore never touches the graph, and a failed
   batch only has to drop the vertices this load created.

   Details the header comment leaves open:
   - ids: a file may name ids 0 .. 2^31-2 (after 1-based ids are shifted);
     header counts n may be 0 .. 2^31-1. A header n creates vertices
     0..n-1 even when no edge names them.
   - numbers are parsed here, independently of the C locale: ids and counts
     are plain decimal digits; weights are decimal ([+-]digits[.digits]
     [e[+-]digits], or .digits), each read as the float nearest it (exactly
     what strtof gives); NaN, infinities and values beyond the float range
     are parse errors.
   - edge lists: '#' or '%' starts a comment anywhere a field may start;
     commas separate fields as well as spaces and tabs (CSV); an empty file
     or one with only comments is a valid empty edge list.
   - every format: blank lines are ignored (except in METIS, where a blank
     line is a vertex without neighbours); a UTF-8 byte order mark is
     skipped; a gzip-compressed file is reported as such.
   - count mismatches found at the end of the file (Matrix Market nnz,
     DIMACS m, METIS 2m) name the line that declared the count; an entry
     beyond the declared count names its own line; "end of file" errors name
     the last line of the file.
   - DIMACS: only "p sp"; lines whose first field starts with 'c' are
     comments; "a" lines need the weight. METIS: fmt 0, 1, 10, 11 (vertex
     weights are checked and dropped; vertex sizes, fmt 1xx, are refused);
     '%' lines are comments; after the n vertex lines only blank or comment
     lines may follow; the lists must be symmetric (dg__load_metis_symmetric);
     a vertex line with neighbours names its own vertex (removed-vertex check). GRAIL: "i:" may also be written "i :" or "i:j"; each
     vertex line must end with '#'.
   - DG_ERR_NOT_FOUND names the graph's id (0-based), and for 1-based files
     also the id as written. */
#include <float.h>                 /* FLT_MAX; stdio, stdarg, string, errno come from above */
#include <locale.h>                /* localeconv: the decimal point strtof expects */

#define DG__LOAD_CHUNK 65536          /* bytes read per fread */
#define DG__LOAD_TOKMAX 255           /* longest field kept */
#define DG__LOAD_MAX_ID ((unsigned long long)DG__MAX_IDS - 1)   /* largest id a file may name
                                                                 (0-based): the last id */
#define DG__LOAD_MAX_N  ((unsigned long long)DG__MAX_IDS)       /* largest header vertex count */
#define DG__LOAD_MAX_COUNT (1ULL << 60) /* largest header edge count */
#define DG__SNAP_MAGIC "DGSNAP1"        /* a snapshot's first 8 bytes (with the '\0'; >>save) */
/* The store image (DG_FORMAT_SNAPSHOT as written on a little-endian host; >>save,
   dg__save_image): its magic, header sizes in words, and its word-wise hash. */
#define DG__IMG_MAGIC "DGSNAP2"
#define DG__IMG_HEAD 9
#define DG__IMG_STORE 10
static int dg__little_endian(void) { uint32_t x = 1; unsigned char c; memcpy(&c, &x, 1); return c == 1; }
/* The image's hash: 8-byte words dealt round four lanes (word i to lane i mod 4, whatever
   pieces they come in), each lane a multiply-xorshift chain, the lanes folded at the end. */
typedef struct dg__wh { uint64_t h[4], n; } dg__wh;
static void dg__wh_init(dg__wh *w) {
    int i;
    for (i = 0; i < 4; i++) w->h[i] = DG__FNV_SEED + (uint64_t)i;
    w->n = 0;
}
#define DG__WH_MIX(h, x) ((h) = ((h) ^ (x)) * 0x9E3779B97F4A7C15ULL, (h) ^= (h) >> 29)
/* n bytes (a multiple of 8). */
static void dg__wh_add(dg__wh *w, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    size_t k = n / 8;
    uint64_t x, y, z, t;
    for (; k && (w->n & 3); k--, b += 8, w->n++) { memcpy(&x, b, 8); DG__WH_MIX(w->h[w->n & 3], x); }
    for (; k >= 4; k -= 4, b += 32, w->n += 4) {
        memcpy(&x, b, 8); memcpy(&y, b + 8, 8); memcpy(&z, b + 16, 8); memcpy(&t, b + 24, 8);
        DG__WH_MIX(w->h[0], x); DG__WH_MIX(w->h[1], y); DG__WH_MIX(w->h[2], z); DG__WH_MIX(w->h[3], t);
    }
    for (; k; k--, b += 8, w->n++) { memcpy(&x, b, 8); DG__WH_MIX(w->h[w->n & 3], x); }
}
static uint64_t dg__wh_end(const dg__wh *w) {
    uint64_t h = w->n;
    int i;
    for (i = 0; i < 4; i++) DG__WH_MIX(h, w->h[i]);
    return h;
}

/* printf-style checking (GCC, clang): the format is argument fmt_index, its arguments start at
   first_arg. Guarded, so that a definition earlier in the file (next to dg__fail) is kept. */
#ifndef DG__PRINTF
#if defined(__GNUC__) || defined(__clang__)
#define DG__PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define DG__PRINTF(fmt_index, first_arg)
#endif
#endif

typedef struct dg__load_reader {
    FILE *f;
    char *buf;                   /* DG__LOAD_CHUNK bytes */
    size_t pos, len;             /* next byte, bytes in buf */
    int eof, ioerr, ioerrno;
    int comma;                   /* ',' separates fields too (edge lists) */
    int lastnl;                  /* the last byte consumed was '\n' */
    unsigned long long line;     /* 1-based number of the line being read */
    char tok[DG__LOAD_TOKMAX + 1];
    size_t toklen;               /* true length of the field; tok keeps at most DG__LOAD_TOKMAX */
    const char *mem;             /* dg_load_memory: the bytes (f is NULL; buf is a window on
                                    them, DG__LOAD_CHUNK at a time), msize of them, moff read */
    size_t msize, moff;
    void (*progress)(double fraction, void *user);   /* dg_load_options.progress */
    void *progress_user;
    unsigned long long total, done, next;            /* bytes: in all (0: unknown), read, next report */
} dg__load_reader;

typedef struct dg__load_state {
    dg_graph *g;
    const char *path;
    dg__load_reader r;
    dg_edge *edges;              /* the batch: nedges of cap */
    size_t nedges, cap;
    size_t cap_hint;             /* header's edge count, to size the first allocation */
    int weighted;                /* keep weights (else all 1) */
    int flags;                   /* DG__BATCH_* for dg__add_edges_ex */
    int one_based;
    size_t old_bound;            /* dg_vertex_id_bound(g) before the load */
    size_t need;                 /* vertices the file needs: max(max id + 1, header n) */
    unsigned long long removed_line; /* first line naming a removed vertex (0: none) */
    dg_vertex removed_id;
    size_t *skip;                /* METIS: for each comment line among the vertex lines, the
                                    number of vertex lines before it (nskip of skip_cap) */
    size_t nskip, skip_cap;
    const dg_load_options *opt;
    dg_vertex *dead;             /* snapshot: the removed ids to remove again (ndead) */
    size_t ndead;
} dg__load_state;

/* ---- the reader ---- */

static int dg__load_fill(dg__load_reader *r) {
    if (r->eof) return 0;
    r->pos = 0;
    if (r->mem) {                                 /* the next window of the caller's bytes */
        r->len = r->msize - r->moff < DG__LOAD_CHUNK ? r->msize - r->moff : DG__LOAD_CHUNK;
        r->buf = (char *)(uintptr_t)(r->mem + r->moff);   /* read only, never written */
        r->moff += r->len;
    } else {
        r->len = fread(r->buf, 1, DG__LOAD_CHUNK, r->f);
    }
    r->done += r->len;
    if (r->progress && r->total && r->done >= r->next && r->done < r->total) {
        r->progress((double)r->done / (double)r->total, r->progress_user);
        r->next = r->done + r->total / 100;       /* at least every 1% (a chunk at least) */
    }
    if (r->len == 0) {
        if (r->f && ferror(r->f)) {
            r->ioerr = 1;
            r->ioerrno = errno;
        }
        r->eof = 1;
        return 0;
    }
    return 1;
}

/* The next byte, not consumed; -1 at the end of the file. */
static int dg__load_peek(dg__load_reader *r) {
    if (r->pos >= r->len && !dg__load_fill(r)) return -1;
    return (unsigned char)r->buf[r->pos];
}

/* Byte classes: 1 separates fields, 2 separates fields in edge lists (','), 4 ends a line. */
static const unsigned char dg__load_class[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 4, 1, 1, 1, 0, 0,     /* \t \n \v \f \r */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0      /* ' ' ',' */
};

/* Reads the next field of the current line into r->tok. Returns 0, consuming only
   separators, when the line has no more fields (the '\n' is left for dg__load_next_line).
   The scans work on local copies of the buffer bounds: stores into r->tok could alias them. */
static int dg__load_token(dg__load_reader *r) {
    const unsigned char *p, *end, *buf;
    size_t n = 0;
    unsigned sep = r->comma ? 3u : 1u, stop = sep | 4u;
    for (;;) {                                  /* separators */
        if (r->pos >= r->len && !dg__load_fill(r)) return 0;
        buf = (const unsigned char *)r->buf;
        p = buf + r->pos;
        end = buf + r->len;
        while (p < end && (dg__load_class[*p] & sep)) p++;
        if (p != buf + r->pos) r->lastnl = 0;
        r->pos = (size_t)(p - buf);
        if (p < end) break;
    }
    if (*p == '\n') return 0;
    for (;;) {                                  /* the field */
        const unsigned char *q = p;
        size_t k;
        while (q < end && !(dg__load_class[*q] & stop)) q++;
        k = (size_t)(q - p);
        if (n < DG__LOAD_TOKMAX)
            memcpy(r->tok + n, p, k < DG__LOAD_TOKMAX - n ? k : DG__LOAD_TOKMAX - n);
        n += k;
        r->pos = (size_t)(q - buf);
        if (q < end || !dg__load_fill(r)) break;
        buf = (const unsigned char *)r->buf;
        p = buf;
        end = buf + r->len;
    }
    r->tok[n < DG__LOAD_TOKMAX ? n : DG__LOAD_TOKMAX] = '\0';
    r->toklen = n;
    r->lastnl = 0;
    return 1;
}

/* Consumes the rest of the current line and its '\n'. */
static void dg__load_next_line(dg__load_reader *r) {
    for (;;) {
        const char *nl;
        if (r->pos >= r->len && !dg__load_fill(r)) return;
        nl = (const char *)memchr(r->buf + r->pos, '\n', r->len - r->pos);
        if (nl) {
            r->pos = (size_t)(nl - r->buf) + 1;
            r->line++;
            r->lastnl = 1;
            return;
        }
        r->pos = r->len;
        r->lastnl = 0;
    }
}

/* The last line of the file, for errors found at its end (an empty file has line 1). */
static unsigned long long dg__load_eof_line(const dg__load_reader *r) {
    return (r->lastnl && r->line > 1) ? r->line - 1 : r->line;
}

/* The current field equals word (exactly, or ignoring ASCII case). */
static int dg__load_tok_is(const dg__load_reader *r, const char *word, int nocase) {
    size_t i, n = strlen(word);
    if (r->toklen != n) return 0;
    for (i = 0; i < n; i++) {
        int a = (unsigned char)r->tok[i], b = (unsigned char)word[i];
        if (nocase) {
            if (a >= 'A' && a <= 'Z') a += 'a' - 'A';
            if (b >= 'A' && b <= 'Z') b += 'a' - 'A';
        }
        if (a != b) return 0;
    }
    return 1;
}

static int dg__load_tok_is_comment(const dg__load_reader *r, int hash_too) {
    return r->tok[0] == '%' || (hash_too && r->tok[0] == '#');
}

/* ---- errors ---- */

/* The message names the file's bytes ('%.40s' of a token): control bytes among them (a
   terminal escape in a crafted file) are written as \xNN, never copied into a log. */
static dg_status dg__load_verr(dg__load_state *L, dg_status s, unsigned long long line,
                               const char *fmt, va_list ap) {
    char msg[320], safe[4 * sizeof msg];
    size_t i, o = 0;
    vsnprintf(msg, sizeof msg, fmt, ap);
    for (i = 0; msg[i]; i++) {
        unsigned char c = (unsigned char)msg[i];
        if (c < 0x20 || c == 0x7f) o += (size_t)sprintf(safe + o, "\\x%02x", (unsigned)c);
        else safe[o++] = (char)c;
    }
    safe[o] = '\0';
    return dg__fail(L->g, s, "%s:%llu: %s", L->path, line, safe);
}

/* DG_ERR_PARSE at the current line. */
static dg_status dg__load_err(dg__load_state *L, const char *fmt, ...) DG__PRINTF(2, 3);
static dg_status dg__load_err(dg__load_state *L, const char *fmt, ...) {
    dg_status s;
    va_list ap;
    va_start(ap, fmt);
    s = dg__load_verr(L, DG_ERR_PARSE, L->r.line, fmt, ap);
    va_end(ap);
    return s;
}

/* Status s at a given line. */
static dg_status dg__load_err_at(dg__load_state *L, dg_status s, unsigned long long line,
                                 const char *fmt, ...) DG__PRINTF(4, 5);
static dg_status dg__load_err_at(dg__load_state *L, dg_status s, unsigned long long line,
                                 const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    s = dg__load_verr(L, s, line, fmt, ap);
    va_end(ap);
    return s;
}

/* ---- numbers ---- */

static int dg__load_digits(const char *s, size_t n) {
    size_t i;
    if (n == 0) return 0;
    for (i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return 0;
    return 1;
}

/* Decimal digits s[0..n) (already checked), saturating a little above 2^60. */
static unsigned long long dg__load_udec(const char *s, size_t n) {
    unsigned long long x = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        x = x * 10 + (unsigned long long)(s[i] - '0');
        if (x > (1ULL << 61)) return (1ULL << 61) + 1;
    }
    return x;
}

/* Remembers the first line that names v when v is a removed vertex of the graph (the error is
   reported after the parse, so that a parse error later in the file wins). */
static void dg__load_note_removed(dg__load_state *L, dg_vertex v) {
    if ((size_t)v < L->old_bound && L->removed_line == 0 && !dg_has_vertex(L->g, v)) {
        L->removed_line = L->r.line;
        L->removed_id = v;
    }
}

/* The vertex id in s[0..n), written base-based (0 or 1). When bounded, it must be one of the
   header's count ids. Records it for the vertex creation and the removed-vertex check. */
static dg_status dg__load_id(dg__load_state *L, const char *s, size_t n, int base,
                             int bounded, unsigned long long count, const char *what,
                             dg_vertex *out) {
    unsigned long long x = 0, v;
    size_t i;
    if (n > DG__LOAD_TOKMAX)
        return dg__load_err(L, "%s '%.40s...' is too long", what, s);
    for (i = 0; i < n; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9) break;
        if (x < (1ULL << 40)) x = x * 10 + d;
    }
    if (i != n || n == 0) {
        if (n > 1 && s[0] == '-' && dg__load_digits(s + 1, n - 1))
            return dg__load_err(L, "negative %s %.*s", what, (int)n, s);
        return dg__load_err(L, "expected %s, found '%.40s'", what, s);
    }
    if (base == 1 && x == 0)
        return dg__load_err(L, "%s 0 is not valid: this format numbers vertices from 1", what);
    if (bounded && (count == 0 || x > count - 1 + (unsigned long long)base)) {
        if (count == 0)
            return dg__load_err(L, "%s %.*s is out of range: the header declares no vertices",
                                what, (int)n, s);
        return dg__load_err(L, "%s %.*s is out of range %d..%llu", what, (int)n, s, base,
                            count - 1 + (unsigned long long)base);
    }
    v = x - (unsigned long long)base;
    if (v > DG__LOAD_MAX_ID)
        return dg__load_err(L, "%s %.*s is too large (vertex ids end at %llu)", what, (int)n, s,
                            DG__LOAD_MAX_ID + (unsigned long long)base);
    *out = (dg_vertex)v;
    if ((size_t)v + 1 > L->need) L->need = (size_t)v + 1;
    dg__load_note_removed(L, (dg_vertex)v);
    return DG_OK;
}

/* A non-negative count (header n, m, nnz, ...) in the current field, at most max. */
static dg_status dg__load_count(dg__load_state *L, const char *what, unsigned long long max,
                                unsigned long long *out) {
    const dg__load_reader *r = &L->r;
    if (r->toklen > DG__LOAD_TOKMAX)
        return dg__load_err(L, "%s '%.40s...' is too long", what, r->tok);
    if (!dg__load_digits(r->tok, r->toklen))
        return dg__load_err(L, "expected %s, found '%.40s'", what, r->tok);
    *out = dg__load_udec(r->tok, r->toklen);
    if (*out > max) return dg__load_err(L, "%s %s is too large (at most %llu)", what, r->tok, max);
    return DG_OK;
}

static int dg__load_word_ci(const char *s, size_t n, const char *word) {
    size_t i, k = strlen(word);
    if (n != k) return 0;
    for (i = 0; i < k; i++) {
        int c = (unsigned char)s[i];
        if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
        if (c != word[i]) return 0;
    }
    return 1;
}

/* A finite weight in s[0..n): [+-](digits[.digits]|.digits)[(e|E)[+-]digits], decimal
   whatever the C locale. */
/* The float nearest the decimal s[0..n) (its syntax checked; mant and exp10 from it, v its
   double estimate), exactly as strtof rounds it: where mant and 10^|exp10| are exact floats
   one float operation rounds once, correctly (floats evaluated as floats); else strtof itself, on
   a copy whose '.' is the C library's decimal point (the program's locale may use another);
   the double estimate rounded to float (off by an ulp at worst) if that copy does not parse. */
static float dg__load_exact(const char *s, size_t n, int neg, unsigned long long mant, long exp10, double v) {
    char buf[DG__LOAD_TOKMAX + 1], *end = NULL;
    const char *dp = localeconv()->decimal_point;
    size_t i;
    float f;
#if defined(FLT_EVAL_METHOD) && (FLT_EVAL_METHOD == 0 || FLT_EVAL_METHOD == 16)   /* 16: only _Float16 widened */
    static const float p10[11] = { 1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f };
    if (mant < (1ULL << 24) && exp10 >= -10 && exp10 <= 10) {
        f = exp10 >= 0 ? (float)mant * p10[exp10] : (float)mant / p10[-exp10];
        return neg ? -f : f;
    }
#else
    (void)mant; (void)exp10;
#endif
    for (i = 0; i < n; i++) buf[i] = s[i] == '.' && dp && dp[0] && !dp[1] ? dp[0] : s[i];
    buf[n] = '\0';
    f = strtof(buf, &end);
    return end == buf + n ? f : (float)(neg ? -v : v);
}

static dg_status dg__load_weight(dg__load_state *L, const char *s, size_t n, const char *what,
                                 float *out) {
    static const double p10[23] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
        1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
    unsigned long long mant = 0;
    long exp10 = 0, e = 0;
    size_t i = 0;
    int neg = 0, digits = 0;
    double v;
    if (n > DG__LOAD_TOKMAX)
        return dg__load_err(L, "%s '%.40s...' is too long", what, s);
    if (i < n && (s[i] == '+' || s[i] == '-')) {
        neg = s[i] == '-';
        i++;
    }
    if (n - i >= 3 && dg__load_word_ci(s + i, 3, "nan"))
        return dg__load_err(L, "%s is NaN ('%.40s')", what, s);
    if (dg__load_word_ci(s + i, n - i, "inf") || dg__load_word_ci(s + i, n - i, "infinity"))
        return dg__load_err(L, "%s is infinite ('%.40s')", what, s);
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
        if (mant < 100000000000000000ULL) mant = mant * 10 + (unsigned long long)(s[i] - '0');
        else exp10++;
    }
    if (i < n && s[i] == '.') {
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
            if (mant < 100000000000000000ULL) {
                mant = mant * 10 + (unsigned long long)(s[i] - '0');
                exp10--;
            }
        }
    }
    if (digits && i < n && (s[i] == 'e' || s[i] == 'E')) {
        int eneg = 0, edigits = 0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) {
            eneg = s[i] == '-';
            i++;
        }
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, edigits++)
            if (e < 100000) e = e * 10 + (s[i] - '0');
        if (!edigits) digits = 0;
        exp10 += eneg ? -e : e;
    }
    if (!digits || i != n) return dg__load_err(L, "expected %s, found '%.40s'", what, s);
    e = exp10;                                    /* (the scaling below consumes exp10) */
    v = (double)mant;
    if (mant != 0) {
        /* mant < 10^18: beyond these exponents the value is infinite or 0 as a float anyway */
        if (exp10 > 400) exp10 = 400;
        if (exp10 < -400) exp10 = -400;
        while (exp10 > 22) {
            v *= 1e22;
            exp10 -= 22;
        }
        while (exp10 < -22) {
            v /= 1e22;
            exp10 += 22;
        }
        if (exp10 > 0) v *= p10[exp10];
        else if (exp10 < 0) v /= p10[-exp10];
    }
    if (!(v <= (double)FLT_MAX))
        return dg__load_err(L, "%s %.40s is beyond the range of a float", what, s);
    *out = dg__load_exact(s, n, neg, mant, e, v);
    return DG_OK;
}

/* ---- fields of the current line ---- */

static dg_status dg__load_field_id(dg__load_state *L, int base, int bounded,
                                   unsigned long long count, const char *what, dg_vertex *out) {
    if (!dg__load_token(&L->r)) return dg__load_err(L, "missing %s", what);
    return dg__load_id(L, L->r.tok, L->r.toklen, base, bounded, count, what, out);
}

static dg_status dg__load_field_count(dg__load_state *L, const char *what,
                                      unsigned long long max, unsigned long long *out) {
    if (!dg__load_token(&L->r)) return dg__load_err(L, "missing %s", what);
    return dg__load_count(L, what, max, out);
}

static dg_status dg__load_field_weight(dg__load_state *L, const char *what, float *out) {
    if (!dg__load_token(&L->r)) return dg__load_err(L, "missing %s", what);
    return dg__load_weight(L, L->r.tok, L->r.toklen, what, out);
}

/* The line must hold nothing more; moves to the next line. */
static dg_status dg__load_end_line(dg__load_state *L, const char *after) {
    if (dg__load_token(&L->r))
        return dg__load_err(L, "unexpected '%.40s' after %s", L->r.tok, after);
    dg__load_next_line(&L->r);
    return DG_OK;
}

/* Moves to the first line holding a field that is not a comment, with that field in r->tok.
   Returns 0 at the end of the file. */
static int dg__load_skip_to_content(dg__load_reader *r, int hash_comments) {
    while (dg__load_peek(r) >= 0) {
        if (dg__load_token(r) && !dg__load_tok_is_comment(r, hash_comments)) return 1;
        dg__load_next_line(r);
    }
    return 0;
}

/* ---- the batch ---- */

static dg_status dg__load_push(dg__load_state *L, dg_vertex u, dg_vertex v, float w) {
    if (L->nedges == L->cap) {
        size_t ncap;
        dg_edge *ne;
        if (L->cap == 0) {
            ncap = L->cap_hint < 1024 ? 1024 : L->cap_hint > 65536 ? 65536 : L->cap_hint;
        } else {
            if (L->cap > ((size_t)-1) / 2 / sizeof(dg_edge))
                return dg__load_err_at(L, DG_ERR_LIMIT, L->r.line,
                                       "more edges than one allocation can hold");
            ncap = L->cap * 2;
        }
        ne = (dg_edge *)dg__alloc(L->g, ncap * sizeof(dg_edge));
        if (!ne)
            return dg__load_err_at(L, DG_ERR_OUT_OF_MEMORY, L->r.line,
                                   "out of memory for a batch of %llu edges",
                                   (unsigned long long)ncap);
        if (L->nedges) memcpy(ne, L->edges, L->nedges * sizeof(dg_edge));
        if (L->edges) dg__free(L->g, L->edges);
        L->edges = ne;
        L->cap = ncap;
    }
    L->edges[L->nedges].src = u;
    L->edges[L->nedges].dst = v;
    L->edges[L->nedges].weight = L->weighted ? w : 1.0f;
    L->nedges++;
    return DG_OK;
}

static void dg__load_header_n(dg__load_state *L, unsigned long long n) {
    if ((size_t)n > L->need) L->need = (size_t)n;
}

static void dg__load_hint(dg__load_state *L, unsigned long long m) {
    L->cap_hint = m > 65536 ? 65536 : (size_t)m;
}

/* ---- edge list: "u v" or "u v w", 0-based ---- */

static dg_status dg__load_edge_list(dg__load_state *L) {
    dg__load_reader *r = &L->r;
    dg_status st = DG_OK;
    r->comma = 1;
    while (dg__load_peek(r) >= 0) {
        dg_vertex u, v;
        float w = 1.0f;
        if (!dg__load_token(r)) { dg__load_next_line(r); continue; }
        if (dg__load_tok_is_comment(r, 1)) {
            /* "# vertices N" (dg_save writes it): the id bound, N <= DG__LOAD_MAX_N */
            if (r->toklen == 1 && r->tok[0] == '#' && dg__load_token(r) && dg__load_tok_is(r, "vertices", 0) &&
                dg__load_token(r) && dg__load_digits(r->tok, r->toklen)) {
                unsigned long long n;
                DG__TRY(dg__load_count(L, "vertex count", DG__LOAD_MAX_N, &n));
                dg__load_header_n(L, n);
            }
            dg__load_next_line(r);
            continue;
        }
        DG__TRY(dg__load_id(L, r->tok, r->toklen, 0, 0, 0, "source vertex id", &u));
        DG__TRY(dg__load_field_id(L, 0, 0, 0, "destination vertex id", &v));
        if (dg__load_token(r) && !dg__load_tok_is_comment(r, 1)) {
            DG__TRY(dg__load_weight(L, r->tok, r->toklen, "weight", &w));
            if (dg__load_token(r) && !dg__load_tok_is_comment(r, 1))
                return dg__load_err(L, "unexpected '%.40s' after the edge "
                                    "(expected \"u v\" or \"u v weight\")", r->tok);
        }
        DG__TRY(dg__load_push(L, u, v, w));
        dg__load_next_line(r);
    }
done:
    return st;
}

/* One more of what (entries, arcs) after count: an error once the declared number is read. */
static dg_status dg__load_more(dg__load_state *L, const char *what, unsigned long long declared,
                               unsigned long long line, unsigned long long count) {
    if (count < declared)
        return DG_OK;
    return dg__load_err(L, "more %s than the %llu declared on line %llu", what, declared, line);
}

/* The end of the file: count of what must be the number declared on line by the header named. */
static dg_status dg__load_all(dg__load_state *L, const char *header, const char *what,
                              unsigned long long declared, unsigned long long line,
                              unsigned long long count) {
    if (count == declared)
        return DG_OK;
    return dg__load_err_at(L, DG_ERR_PARSE, line, "%s declares %llu %s but the file has %llu",
                           header, declared, what, count);
}

/* ---- Matrix Market: coordinate pattern|real|integer general|symmetric, 1-based ---- */

static dg_status dg__load_matrix_market(dg__load_state *L) {
    dg__load_reader *r = &L->r;
    unsigned long long rows, cols, nnz, count = 0, size_line;
    int pattern = 0;
    dg_status st = DG_OK;
    if (!dg__load_token(r) || !dg__load_tok_is(r, "%%MatrixMarket", 1))
        return dg__load_err(L, "not a Matrix Market file: the first line must start with "
                            "%%%%MatrixMarket");
    if (!dg__load_token(r)) return dg__load_err(L, "incomplete banner: missing the object (matrix)");
    if (!dg__load_tok_is(r, "matrix", 1))
        return dg__load_err(L, "unsupported Matrix Market object '%.40s' (only 'matrix')", r->tok);
    if (!dg__load_token(r))
        return dg__load_err(L, "incomplete banner: missing the format (coordinate)");
    if (dg__load_tok_is(r, "array", 1))
        return dg__load_err(L, "dense 'array' Matrix Market files are not supported "
                            "(only 'coordinate')");
    if (!dg__load_tok_is(r, "coordinate", 1))
        return dg__load_err(L, "unknown Matrix Market format '%.40s' (expected 'coordinate')",
                            r->tok);
    if (!dg__load_token(r))
        return dg__load_err(L, "incomplete banner: missing the field (pattern, real or integer)");
    if (dg__load_tok_is(r, "pattern", 1)) pattern = 1;
    else if (dg__load_tok_is(r, "complex", 1))
        return dg__load_err(L, "complex matrices are not supported (only pattern, real or integer)");
    else if (!dg__load_tok_is(r, "real", 1) && !dg__load_tok_is(r, "integer", 1))
        return dg__load_err(L, "unknown Matrix Market field '%.40s' "
                            "(expected pattern, real or integer)", r->tok);
    if (!dg__load_token(r))
        return dg__load_err(L, "incomplete banner: missing the symmetry (general or symmetric)");
    if (dg__load_tok_is(r, "symmetric", 1)) L->flags |= DG__BATCH_BOTH_DIRS;
    else if (dg__load_tok_is(r, "skew-symmetric", 1) || dg__load_tok_is(r, "hermitian", 1))
        return dg__load_err(L, "%s matrices are not supported (only general or symmetric)",
                            dg__load_tok_is(r, "hermitian", 1) ? "hermitian" : "skew-symmetric");
    else if (!dg__load_tok_is(r, "general", 1))
        return dg__load_err(L, "unknown Matrix Market symmetry '%.40s' "
                            "(expected general or symmetric)", r->tok);
    DG__TRY(dg__load_end_line(L, "the banner"));

    if (!dg__load_skip_to_content(r, 0))
        return dg__load_err_at(L, DG_ERR_PARSE, dg__load_eof_line(r),
                               "end of file before the size line 'rows columns entries'");
    size_line = r->line;
    DG__TRY(dg__load_count(L, "row count", DG__LOAD_MAX_N, &rows));
    DG__TRY(dg__load_field_count(L, "column count", DG__LOAD_MAX_N, &cols));
    DG__TRY(dg__load_field_count(L, "entry count", DG__LOAD_MAX_COUNT, &nnz));
    DG__TRY(dg__load_end_line(L, "the size line 'rows columns entries'"));
    dg__load_header_n(L, rows > cols ? rows : cols);
    dg__load_hint(L, nnz);

    while (dg__load_skip_to_content(r, 0)) {
        dg_vertex i, j;
        float w = 1.0f;
        DG__TRY(dg__load_more(L, "entries", nnz, size_line, count));
        DG__TRY(dg__load_id(L, r->tok, r->toklen, 1, 1, rows, "row index", &i));
        DG__TRY(dg__load_field_id(L, 1, 1, cols, "column index", &j));
        if (!pattern) DG__TRY(dg__load_field_weight(L, "value", &w));
        DG__TRY(dg__load_end_line(L, pattern ? "the entry 'row column'"
                                             : "the entry 'row column value'"));
        DG__TRY(dg__load_push(L, i, j, w));
        count++;
    }
    DG__TRY(dg__load_all(L, "the size line", "entries", nnz, size_line, count));
done:
    return st;
}

/* ---- DIMACS shortest paths: "p sp n m", "a u v w", 1-based ---- */

static dg_status dg__load_dimacs(dg__load_state *L) {
    dg__load_reader *r = &L->r;
    unsigned long long n = 0, m = 0, count = 0, p_line = 0;
    dg_status st = DG_OK;
    while (dg__load_peek(r) >= 0) {
        if (!dg__load_token(r) || r->tok[0] == 'c') {
            dg__load_next_line(r);
        } else if (dg__load_tok_is(r, "p", 0)) {
            if (p_line)
                return dg__load_err(L, "a second problem line (the first is on line %llu)", p_line);
            if (!dg__load_token(r)) return dg__load_err(L, "missing the problem type (expected 'p sp n m')");
            if (!dg__load_tok_is(r, "sp", 0))
                return dg__load_err(L, "unsupported DIMACS problem type '%.40s' (only 'sp')", r->tok);
            DG__TRY(dg__load_field_count(L, "vertex count n", DG__LOAD_MAX_N, &n));
            DG__TRY(dg__load_field_count(L, "arc count m", DG__LOAD_MAX_COUNT, &m));
            p_line = r->line;
            DG__TRY(dg__load_end_line(L, "the problem line 'p sp n m'"));
            dg__load_header_n(L, n);
            dg__load_hint(L, m);
        } else if (dg__load_tok_is(r, "a", 0)) {
            dg_vertex u, v;
            float w;
            if (!p_line) return dg__load_err(L, "arc before the problem line 'p sp n m'");
            DG__TRY(dg__load_more(L, "arcs", m, p_line, count));
            DG__TRY(dg__load_field_id(L, 1, 1, n, "tail vertex id", &u));
            DG__TRY(dg__load_field_id(L, 1, 1, n, "head vertex id", &v));
            DG__TRY(dg__load_field_weight(L, "arc weight", &w));
            DG__TRY(dg__load_end_line(L, "the arc 'a u v w'"));
            DG__TRY(dg__load_push(L, u, v, w));
            count++;
        } else {
            return dg__load_err(L, "unknown line type '%.40s' (expected c, p or a)", r->tok);
        }
    }
    if (!p_line)
        return dg__load_err_at(L, DG_ERR_PARSE, dg__load_eof_line(r),
                               "no problem line 'p sp n m' in the file");
    DG__TRY(dg__load_all(L, "the problem line", "arcs", m, p_line, count));
done:
    return st;
}

/* ---- METIS: "n m [fmt [ncon]]", then one line of 1-based neighbours per vertex ---- */

static int dg__load_cmp_dst(const void *a, const void *b) {
    dg_vertex x = ((const dg_edge *)a)->dst, y = ((const dg_edge *)b)->dst;
    return (x > y) - (x < y);
}

/* METIS lists every edge on the lines of both its vertices. Checked after the parse in
   O(entries + sorting each line): the entries were pushed line by line, so L->edges is grouped
   by source in increasing order; a stable counting sort by neighbour gives each vertex the
   ascending list of lines that name it, which must equal the vertex's own line as a set (each
   line is sorted in place; a load keeps the smallest weight of repeats, so order is free).
   Reports the first line (in the file) that lists a neighbour whose line does not list it back;
   first_line is the file line of vertex line 0, and L->skip shifts the later ones. */
static dg_status dg__load_metis_symmetric(dg__load_state *L, size_t n, unsigned long long first_line) {
    size_t m = L->nedges, *off, i, e, r, bad_u = (size_t)-1, bad_v = 0, j;
    uint32_t *t;
    dg_graph *g = L->g;
    if (m == 0) return DG_OK;
    off = (size_t *)dg__alloc(g, (n + 2) * sizeof(size_t));
    t = (uint32_t *)dg__alloc(g, m * sizeof(uint32_t));
    if (!off || !t) {
        if (off) dg__free(g, off);
        if (t) dg__free(g, t);
        return dg__load_err_at(L, DG_ERR_OUT_OF_MEMORY, first_line,
                               "out of memory for checking that the edges are listed both ways");
    }
    memset(off, 0, (n + 2) * sizeof(size_t));
    for (i = 0; i < m; i++) off[(size_t)L->edges[i].dst + 2]++;
    for (r = 2; r < n + 2; r++) off[r] += off[r - 1];
    for (i = 0; i < m; i++) t[off[(size_t)L->edges[i].dst + 1]++] = (uint32_t)L->edges[i].src;
    /* now vertex r is named by the lines t[off[r] .. off[r + 1]), ascending */
    for (r = 0, e = 0; r < n; r++) {
        size_t b = e, p = off[r], pe = off[r + 1];
        while (e < m && (size_t)L->edges[e].src == r) e++;
        if (e - b > 1) qsort(L->edges + b, e - b, sizeof(dg_edge), dg__load_cmp_dst);
        while (b < e || p < pe) {             /* merge the two ascending lists as sets */
            size_t x = b < e ? (size_t)L->edges[b].dst : (size_t)-1;
            size_t y = p < pe ? (size_t)t[p] : (size_t)-1;
            if (x < y) {                      /* r lists x, x's line does not list r */
                if (r < bad_u) { bad_u = r; bad_v = x; }
            } else if (y < x) {               /* y lists r, r's line does not list y */
                if (y < bad_u) { bad_u = y; bad_v = r; }
            }
            if (x <= y) for (; b < e && (size_t)L->edges[b].dst == x; b++) {}
            if (y <= x) for (; p < pe && (size_t)t[p] == y; p++) {}
        }
    }
    dg__free(g, off);
    dg__free(g, t);
    if (bad_u == (size_t)-1) return DG_OK;
    for (j = 0; j < L->nskip && L->skip[j] <= bad_u; j++) {}
    return dg__load_err_at(L, DG_ERR_PARSE, first_line + bad_u + j,
                           "vertex %llu lists %llu, but the line of vertex %llu does not list "
                           "%llu (METIS lists every edge on the lines of both its vertices)",
                           (unsigned long long)bad_u + 1, (unsigned long long)bad_v + 1,
                           (unsigned long long)bad_v + 1, (unsigned long long)bad_u + 1);
}

static dg_status dg__load_metis(dg__load_state *L) {
    dg__load_reader *r = &L->r;
    unsigned long long n, m, fmt = 0, ncon = 0, entries = 0, hdr_line, vline = 0;
    int has_ew, has_vw;
    dg_status st = DG_OK;
    if (!dg__load_skip_to_content(r, 0))
        return dg__load_err_at(L, DG_ERR_PARSE, dg__load_eof_line(r),
                               "end of file before the header line 'n m [fmt [ncon]]'");
    hdr_line = r->line;
    DG__TRY(dg__load_count(L, "vertex count n", DG__LOAD_MAX_N, &n));
    DG__TRY(dg__load_field_count(L, "edge count m", DG__LOAD_MAX_COUNT, &m));
    if (dg__load_token(r)) {
        size_t i;
        if (r->toklen > 3 || !dg__load_digits(r->tok, r->toklen))
            return dg__load_err(L, "invalid METIS fmt '%.40s' (expected 0, 1, 10 or 11)", r->tok);
        for (i = 0; i < r->toklen; i++)
            if (r->tok[i] > '1')
                return dg__load_err(L, "invalid METIS fmt '%s' (expected 0, 1, 10 or 11)", r->tok);
        fmt = dg__load_udec(r->tok, r->toklen);
        if (fmt >= 100)
            return dg__load_err(L, "METIS vertex sizes (fmt %s) are not supported", r->tok);
        if (dg__load_token(r)) DG__TRY(dg__load_count(L, "ncon", 1000000, &ncon));
    }
    DG__TRY(dg__load_end_line(L, "the header 'n m [fmt [ncon]]'"));
    has_ew = (int)(fmt % 10);
    has_vw = (int)(fmt / 10 % 10);
    if (!has_vw) ncon = 0;
    else if (ncon == 0) ncon = 1;
    dg__load_header_n(L, n);
    dg__load_hint(L, 2 * m);
    L->flags |= DG__BATCH_BOTH_DIRS;

    while (vline < n) {
        int have;
        unsigned long long k;
        if (dg__load_peek(r) < 0)
            return dg__load_err_at(L, DG_ERR_PARSE, dg__load_eof_line(r),
                                   "end of file after %llu of the %llu vertex lines", vline, n);
        have = dg__load_token(r);
        if (have && dg__load_tok_is_comment(r, 0)) {
            if (L->nskip == L->skip_cap) {
                size_t cap = L->skip_cap ? 2 * L->skip_cap : 64;
                if (!dg__grow(L->g, (void **)&L->skip, L->skip_cap, cap, sizeof(size_t)))
                    return dg__load_err_at(L, DG_ERR_OUT_OF_MEMORY, r->line,
                                           "out of memory for the comment lines' positions");
                L->skip_cap = cap;
            }
            L->skip[L->nskip++] = (size_t)vline;
            dg__load_next_line(r);
            continue;
        }
        for (k = 0; k < ncon; k++) {
            float vw;
            if (!have)
                return dg__load_err(L, "missing weight %llu of vertex %llu (fmt %llu, ncon %llu)",
                                    k + 1, vline + 1, fmt, ncon);
            DG__TRY(dg__load_weight(L, r->tok, r->toklen, "vertex weight", &vw));
            have = dg__load_token(r);
        }
        if (have) dg__load_note_removed(L, (dg_vertex)vline);
        while (have) {
            dg_vertex v;
            float w = 1.0f;
            DG__TRY(dg__load_id(L, r->tok, r->toklen, 1, 1, n, "neighbour", &v));
            if (has_ew) DG__TRY(dg__load_field_weight(L, "edge weight", &w));
            DG__TRY(dg__load_push(L, (dg_vertex)vline, v, w));
            entries++;
            have = dg__load_token(r);
        }
        dg__load_next_line(r);
        vline++;
    }
    if (dg__load_skip_to_content(r, 0))
        return dg__load_err(L, "more than the %llu vertex lines the header declares", n);
    if (entries != 2 * m)
        return dg__load_err_at(L, DG_ERR_PARSE, hdr_line,
                               "the header declares %llu edges (%llu neighbour entries) but the "
                               "vertex lines hold %llu entries", m, 2 * m, entries);
    DG__TRY(dg__load_metis_symmetric(L, (size_t)n, hdr_line + 1));
done:
    return st;
}

/* ---- GRAIL: "graph_for_greach", n, then "i: j k ... #", 0-based ---- */

/* One item after "i:": a neighbour, or the final '#' (which sets *ended). */
static dg_status dg__load_grail_item(dg__load_state *L, dg_vertex u, unsigned long long n,
                                     const char *s, size_t len, int *ended) {
    dg_vertex v;
    dg_status st;
    if (len == 1 && s[0] == '#') {
        *ended = 1;
        return DG_OK;
    }
    if ((st = dg__load_id(L, s, len, 0, 1, n, "neighbour", &v)) != DG_OK) return st;
    return dg__load_push(L, u, v, 1.0f);
}

static dg_status dg__load_grail(dg__load_state *L) {
    dg__load_reader *r = &L->r;
    unsigned long long n;
    dg_status st = DG_OK;
    if (!dg__load_skip_to_content(r, 0) || !dg__load_tok_is(r, "graph_for_greach", 0))
        return dg__load_err_at(L, DG_ERR_PARSE, dg__load_peek(r) < 0 ? dg__load_eof_line(r) : r->line,
                               "not a GRAIL file: the first line must be 'graph_for_greach'");
    DG__TRY(dg__load_end_line(L, "'graph_for_greach'"));
    if (!dg__load_skip_to_content(r, 0))
        return dg__load_err_at(L, DG_ERR_PARSE, dg__load_eof_line(r),
                               "end of file before the vertex count line");
    DG__TRY(dg__load_count(L, "vertex count n", DG__LOAD_MAX_N, &n));
    DG__TRY(dg__load_end_line(L, "the vertex count"));
    dg__load_header_n(L, n);

    while (dg__load_skip_to_content(r, 0)) {
        dg_vertex u;
        const char *colon;
        size_t rest;
        int ended = 0;
        if (r->toklen > DG__LOAD_TOKMAX)
            return dg__load_err(L, "field '%.40s...' is too long", r->tok);
        colon = (const char *)memchr(r->tok, ':', r->toklen);
        if (colon) {
            DG__TRY(dg__load_id(L, r->tok, (size_t)(colon - r->tok), 0, 1, n, "vertex id", &u));
        } else {
            DG__TRY(dg__load_id(L, r->tok, r->toklen, 0, 1, n, "vertex id", &u));
            if (!dg__load_token(r) || r->tok[0] != ':')
                return dg__load_err(L, "expected ':' after the vertex id");
            if (r->toklen > DG__LOAD_TOKMAX)
                return dg__load_err(L, "field '%.40s...' is too long", r->tok);
            colon = r->tok;
        }
        rest = r->toklen - (size_t)(colon + 1 - r->tok);
        if (rest) DG__TRY(dg__load_grail_item(L, u, n, colon + 1, rest, &ended));
        while (!ended) {
            if (!dg__load_token(r))
                return dg__load_err(L, "missing '#' at the end of the line of vertex %ld", (long)u);
            DG__TRY(dg__load_grail_item(L, u, n, r->tok, r->toklen, &ended));
        }
        DG__TRY(dg__load_end_line(L, "'#'"));
    }
done:
    return st;
}

/* ---- snapshot (dg_save's binary format; see >>save) ---- */

/* The next n bytes of the file into dst (NULL: skipped), hashed; 0 at the end of the file. */
static int dg__load_bytes(dg__load_reader *r, void *dst, size_t n, uint64_t *hash) {
    unsigned char *d = (unsigned char *)dst;
    while (n) {
        size_t k;
        if (r->pos >= r->len && !dg__load_fill(r)) return 0;
        k = r->len - r->pos < n ? r->len - r->pos : n;
        if (d) { memcpy(d, r->buf + r->pos, k); d += k; }
        if (hash) *hash = dg__fnv(*hash, r->buf + r->pos, k);
        r->pos += k;
        n -= k;
    }
    return 1;
}
static uint32_t dg__get_u32(const unsigned char *b) {
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static dg_status dg__snap_err(dg__load_state *L, const char *what) {
    return dg__fail(L->g, DG_ERR_PARSE, "%s: not a valid dyngraph snapshot: %s", L->path, what);
}
/* What both snapshot forms check before anything is allocated: the graph is empty and of the
   snapshot's kind, and the file has the size its header says (want bytes). */
static dg_status dg__snap_fits(dg__load_state *L, int und, int wtd, uint64_t want) {
    dg__load_reader *r = &L->r;
    dg_graph *g = L->g;
    if (L->old_bound != 0)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: a snapshot loads only into an empty graph "
                        "(this one has %zu vertex ids)", L->path, L->old_bound);
    if (und != (g->desc.undirected != 0) || wtd != dg__is_weighted(g))
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: the snapshot is of %s%s graph, this graph is %s%s",
                        L->path, und ? "an undirected" : "a directed", wtd ? " weighted" : "",
                        g->desc.undirected ? "undirected" : "directed", dg__is_weighted(g) ? " and weighted" : "");
    if (r->mem) {
        if ((uint64_t)r->msize != want) return dg__snap_err(L, "its size does not match its header");
    } else {
        long here = ftell(r->f), end = -1;
        if (here >= 0 && fseek(r->f, 0, SEEK_END) == 0) end = ftell(r->f);
        if (here >= 0 && fseek(r->f, here, SEEK_SET) != 0) return dg__snap_err(L, "cannot seek in the file");
        if (end >= 0 && (uint64_t)end != want) return dg__snap_err(L, "its size does not match its header");
    }
    return DG_OK;
}

/* ---- the store image (DGSNAP2; see dg__save_image in >>save) ---- */

/* n bytes of the file into dst, then its padding to 8 bytes, all hashed into *h (the pieces
   are whole words: the reader's chunks start at multiples of 8 in the file, and so do the
   arrays). Large reads go straight from the file into dst. 0: the file ended first. */
static int dg__img_get(dg__load_reader *r, void *dst, size_t n, dg__wh *h) {
    unsigned char *d = (unsigned char *)dst, tail[8];
    size_t pad = (8 - (n & 7)) & 7, k, t = 0;
    while (n) {
        if (r->pos >= r->len && r->f && !r->eof && n >= DG__LOAD_CHUNK) {
            size_t want = n & ~(size_t)(DG__LOAD_CHUNK - 1);
            k = fread(d, 1, want, r->f);
            r->done += k;
            if (r->progress && r->total && r->done >= r->next && r->done < r->total) {
                r->progress((double)r->done / (double)r->total, r->progress_user);
                r->next = r->done + r->total / 100;
            }
            if (k < want) { r->eof = 1; return 0; }
        } else {
            if (r->pos >= r->len && !dg__load_fill(r)) return 0;
            k = r->len - r->pos < n ? r->len - r->pos : n;
            memcpy(d, r->buf + r->pos, k);
            r->pos += k;
        }
        if (k & 7) {                              /* the array's last bytes: hashed with the pad */
            if (k != n) return 0;                 /* (not at a multiple of 8: not an image) */
            memcpy(tail, d + (k & ~(size_t)7), k & 7);
            t = k & 7;
        }
        dg__wh_add(h, d, k & ~(size_t)7);
        d += k; n -= k;
    }
    if (t + pad > 8 || (pad && !dg__load_bytes(r, tail + t, pad, NULL))) return 0;
    if (t + pad) dg__wh_add(h, tail, 8);
    return 1;
}


/* One arc's share of the symmetry sums below (a multiply and a shift: a checksum, not a
   defence against a forger, which the file's own hash is not either). */
static uint64_t dg__mix64(uint64_t x) {
    x = (x ^ 0x2545F4914F6CDD1DULL) * 0x9E3779B97F4A7C15ULL;
    return x ^ (x >> 29);
}
/* Everything a freshly read image must be before the library may trust it, in time linear in
   the file: the counts, the free ids, each store walked by dg__validate_store (free list, page
   order, page layout and fill, large lists and their tables, directory, live targets, no NaN),
   no list naming a vertex twice, and the arcs symmetric (undirected, weights included) or the
   in-store the transpose of the out-store (directed), checked as equal sums of a 64-bit hash
   of each arc and of its mirror. dg_validate checks the same with sorts (seconds, not
   milliseconds, for millions of arcs). seen: a byte per page; bits: 2 words per 64 ids, zero. */
#define DG__CHECK(cond, ...) do { if (!(cond)) { st = dg__fail(g, DG_ERR_CORRUPT, __VA_ARGS__); goto done; } } while (0)
static dg_status dg__img_verify(dg_graph *g, uint8_t *seen, uint64_t *bits) {
    dg_status st = DG_OK;
    size_t v, i, alive = 0, self = 0, cnt[2] = { 0, 0 };
    uint64_t sum[2] = { 0, 0 }, *latab_bits = NULL, *live;
    float wmin = 0.0f;
    int si;
    DG__CHECK(g->nverts <= g->id_bound, "more vertices than ids");
    live = bits + g->id_bound / 64 + 1;           /* the live ids, a bit each */
    for (v = 0; v < g->id_bound; v++) {
        int removed = g->st[0].dir[g->st[0].ds * v] < 0;
        alive += !removed;
        if (!removed) live[v >> 6] |= (uint64_t)1 << (v & 63);
        for (si = 0; si < g->nstores; si++)
            DG__CHECK(!removed || (g->st[si].dir[g->st[si].ds * v] == -1 && g->st[si].dir[g->st[si].ds * v + 1] == -1),
                      "removed vertex %zu has a directory entry", v);
    }
    DG__CHECK(alive == g->nverts, "%zu vertices in the directory, %zu counted", alive, g->nverts);
    DG__CHECK(g->desc.reuse_ids ? g->nfree_ids == g->id_bound - g->nverts : g->nfree_ids == 0,
              "%zu free ids listed, %zu ids not in use", g->nfree_ids, g->id_bound - g->nverts);
    for (i = 0; i < g->nfree_ids; i++) {
        dg_vertex f = g->free_ids[i];
        DG__CHECK(f >= 0 && (size_t)f < g->id_bound && !dg__alive(g, f) && !((bits[f >> 6] >> (f & 63)) & 1),
                  "free id %d is in use, out of range or listed twice", (int)f);
        bits[f >> 6] |= (uint64_t)1 << (f & 63);
    }
    for (si = 0; si < g->nstores; si++) {
        dg__store *S = &g->st[si];
        size_t used = 0;
        uint32_t p;
        if ((st = dg__validate_store(g, si, seen, NULL, NULL, 0)) != DG_OK) goto done;
        /* the LA-table segments of the large lists (first pages: seen 1, la_pos 0) inside the
           table and apart from each other; what no list holds is garbage (counted, not read) */
        latab_bits = (uint64_t *)dg__alloc(g, (S->latab_len / 64 + 1) * sizeof(uint64_t));
        if (!latab_bits) { st = dg__oom(g, "loading a snapshot"); goto done; }
        memset(latab_bits, 0, (S->latab_len / 64 + 1) * sizeof(uint64_t));
        for (p = 0; p < S->page_hw; p++) {
            size_t o, cap, x;
            if (seen[p] != 1 || !S->pool[(size_t)p * g->P + 2] || S->idx[p].la_pos != 0) continue;
            o = (size_t)S->idx[p].la_tab;
            cap = (size_t)(uint32_t)S->latab[o];
            DG__CHECK(o + 1 + cap <= S->latab_len, "store %d: the LA-table segment at %zu runs past the table", si, o);
            for (x = o; x < o + 1 + cap; x++) {
                DG__CHECK(!((latab_bits[x >> 6] >> (x & 63)) & 1), "store %d: two LA-table segments overlap at %zu", si, x);
                latab_bits[x >> 6] |= (uint64_t)1 << (x & 63);
            }
            used += 1 + cap;
        }
        S->latab_garbage = S->latab_len - used;
        dg__free(g, latab_bits);
        latab_bits = NULL;
        for (v = 0; v < g->id_bound; v++) {
            int32_t j, runs;
            if (S->dir[S->ds * v] < 0) continue;
            runs = dg__list_runs(g, S, (dg_vertex)v);
            for (j = 0; j < runs; j++) {
                uint32_t len, k;
                size_t at = dg__list_run(g, S, (dg_vertex)v, j, &len);
                for (k = 0; k < len; k++) {
                    uint32_t d = (uint32_t)S->pool[at + k], wb = 0;
                    DG__CHECK(d < g->id_bound && ((live[d >> 6] >> (d & 63)) & 1),
                              "store %d: vertex %zu lists %d, which does not exist", si, v, (int)d);
                    DG__CHECK(!S->wpool || S->wpool[at + k] == S->wpool[at + k], "store %d: NaN weight", si);
                    DG__CHECK(!DG__MARKED(g, d), "store %d: vertex %zu lists %u twice", si, v, (unsigned)d);
                    DG__MARK(g, d);
                    if (S->wpool) {
                        memcpy(&wb, &S->wpool[at + k], 4);
                        if (S->wpool[at + k] < wmin) wmin = S->wpool[at + k];
                    }
                    if (g->nstores == 1) {          /* each pair (low, high) once each way */
                        uint64_t lo = d < v ? d : v, hi = d < v ? v : d;
                        if (d != v) sum[d < v] += dg__mix64((lo << 32 | hi) ^ ((uint64_t)wb * 0xD6E8FEB86659FD93ULL));
                        else self++;
                    } else {                        /* out-arc v -> d, or in-entry d -> v */
                        sum[si] += dg__mix64(si == 0 ? ((uint64_t)v << 32 | d) : ((uint64_t)d << 32 | v));
                    }
                }
                cnt[si] += len;
            }
            for (j = 0; j < runs; j++) {            /* the marks back to zero */
                uint32_t len, k;
                size_t at = dg__list_run(g, S, (dg_vertex)v, j, &len);
                for (k = 0; k < len; k++) DG__UNMARK(g, S->pool[at + k]);
            }
        }
        DG__CHECK(cnt[si] == g->narcs, "store %d holds %zu entries, %zu arcs counted", si, cnt[si], g->narcs);
    }
    DG__CHECK(sum[0] == sum[1], g->nstores == 1 ? "an arc without its reverse (or with another weight)"
                                                : "the in-lists are not the out-lists reversed");
    DG__CHECK(g->nstores == 1 ? g->nedges == (g->narcs - self) / 2 + self : g->nedges == g->narcs,
              "%zu edges counted for %zu arcs", g->nedges, g->narcs);
    if (!(g->wmin <= wmin)) g->wmin = wmin;      /* at most the smallest weight (NaN: replaced) */
done:
    if (st != DG_OK) memset(g->mark, 0, g->mark_cap * sizeof(uint64_t));
    dg__free(g, latab_bits);
    return st;
}
#undef DG__CHECK

/* The rest of an image (after its header words `head`, checked) into g, an empty graph of its
   page size and kind: the arrays straight into the store's, then the hash and the structure
   checked, then the counts set. On any failure g is as it was (empty). */
static dg_status dg__img_fill(dg__load_state *L, dg_graph *g, const uint64_t *head, dg__wh h) {
    dg__load_reader *r = &L->r;
    size_t bound = (size_t)head[3], i, p;
    int32_t *trip[2] = { NULL, NULL };
    uint64_t *bits = NULL;
    uint8_t *seen = NULL;
    dg__store saved[2];
    size_t saved_n[5];
    float saved_w = g->wmin;
    dg_status st = DG_OK;
    unsigned char b[8];
    int s;
    if ((st = dg__reserve_vertices(g, bound ? bound : 1)) != DG_OK) return st;
    for (s = 0; s < g->nstores; s++) {
        const uint64_t *sh = head + DG__IMG_HEAD + s * DG__IMG_STORE;
        dg__store *S = &g->st[s];
        if ((st = dg__reserve_pages(g, S, (size_t)sh[0])) != DG_OK) goto done;   /* (no pages yet) */
        if (S->page_cap < sh[0]) { st = dg__oom(g, "loading a snapshot"); goto done; }
        if ((st = dg__latab_reserve(g, S, (size_t)sh[8])) != DG_OK) goto done;
        trip[s] = (int32_t *)dg__alloc(g, (size_t)(sh[0] ? sh[0] : 1) * 3 * sizeof(int32_t));
        if (!trip[s]) { st = dg__oom(g, "loading a snapshot"); goto done; }
    }
    if (head[8] > g->free_ids_cap) {
        if (!dg__grow(g, (void **)&g->free_ids, g->free_ids_cap, (size_t)head[8], sizeof(dg_vertex))) {
            st = dg__oom(g, "loading a snapshot"); goto done;
        }
        g->free_ids_cap = (size_t)head[8];
    }
    /* the arrays (an empty graph's: nothing live is overwritten; its page links wait in trip) */
    if (!dg__img_get(r, g->dir, 2 * (size_t)g->nstores * bound * sizeof(int32_t), &h)) goto cut;
    for (s = 0; s < g->nstores; s++) {
        const uint64_t *sh = head + DG__IMG_HEAD + s * DG__IMG_STORE;
        dg__store *S = &g->st[s];
        size_t hw = (size_t)sh[0];
        if (!dg__img_get(r, S->pool, hw * g->P * sizeof(int32_t), &h)) goto cut;
        if (S->wpool && !dg__img_get(r, S->wpool, hw * g->P * sizeof(float), &h)) goto cut;
        if (!dg__img_get(r, S->idx, hw * sizeof(dg__pindex), &h)) goto cut;
        if (!dg__img_get(r, trip[s], hw * 3 * sizeof(int32_t), &h)) goto cut;
        if (!dg__img_get(r, S->latab, (size_t)sh[8] * sizeof(int32_t), &h)) goto cut;
    }
    if (!dg__img_get(r, g->free_ids, (size_t)head[8] * sizeof(dg_vertex), &h)) goto cut;
    if (!dg__load_bytes(r, b, 8, NULL)) goto cut;
    if (dg__get_u64(b) != dg__wh_end(&h)) { st = dg__fail(g, DG_ERR_PARSE, "%s: not a valid dyngraph snapshot: the checksum does not match", L->path); goto done; }
    if (dg__load_bytes(r, b, 1, NULL)) { st = dg__fail(g, DG_ERR_PARSE, "%s: not a valid dyngraph snapshot: bytes after the end", L->path); goto done; }
    /* the counts in place, then everything checked before anything trusts it; a failed check
       puts the empty graph back (its arrays are only capacity then) */
    for (s = 0; s < g->nstores; s++) saved[s] = g->st[s];
    saved_n[0] = g->id_bound; saved_n[1] = g->nverts; saved_n[2] = g->nedges; saved_n[3] = g->narcs;
    saved_n[4] = g->nfree_ids;
    {
        size_t words = 2 * (bound / 64 + 1), maxp = 1;   /* free ids seen, then live ids */
        for (s = 0; s < g->nstores; s++) if (head[DG__IMG_HEAD + s * DG__IMG_STORE] > maxp) maxp = (size_t)head[DG__IMG_HEAD + s * DG__IMG_STORE];
        seen = (uint8_t *)dg__alloc(g, maxp);
        bits = (uint64_t *)dg__alloc(g, words * sizeof(uint64_t));
        if (!seen || !bits) { st = dg__oom(g, "loading a snapshot"); goto done; }
        memset(bits, 0, words * sizeof(uint64_t));
    }
    for (s = 0; s < g->nstores; s++) {
        const uint64_t *sh = head + DG__IMG_HEAD + s * DG__IMG_STORE;
        dg__store *S = &g->st[s];
        S->page_hw = (uint32_t)sh[0];
        if (S->page_hw) memset(S->stale, 0, (S->page_hw + 31) / 32 * sizeof(uint32_t));
        for (p = 0; p < S->page_hw; p++) {
            memset(&S->ph[p], 0, sizeof S->ph[p]);
            S->ph[p].next = trip[s][3 * p]; S->ph[p].prev = trip[s][3 * p + 1];
            S->ph[p].fill = (uint32_t)trip[s][3 * p + 2];
        }
        S->free_head = sh[1] > sh[0] ? -2 : (int32_t)sh[1] - 1;   /* (-2: fails the walk) */
        S->nfree = (uint32_t)sh[2];
        S->head = sh[3] > sh[0] ? -2 : (int32_t)sh[3] - 1;
        S->tail = sh[4] > sh[0] ? -2 : (int32_t)sh[4] - 1;
        S->live_pages = (size_t)sh[5]; S->large_lists = (size_t)sh[6]; S->large_pages = (size_t)sh[7];
        S->latab_len = (size_t)sh[8]; S->latab_garbage = (size_t)sh[9];
        S->changed_pages = 0; S->nstale = 0;
        for (p = 0; p < S->page_hw; p++) dg__touch(S, (int32_t)p);   /* all new to the device */
        S->latab_moved = 1;
    }
    g->id_bound = bound; g->nverts = (size_t)head[4]; g->nedges = (size_t)head[5]; g->narcs = (size_t)head[6];
    {
        uint32_t wb = (uint32_t)head[7];
        memcpy(&g->wmin, &wb, 4);
    }
    g->nfree_ids = (size_t)head[8];
    if ((st = dg__marks(g)) != DG_OK) goto undo;
    if ((st = dg__img_verify(g, seen, bits)) != DG_OK) {
        char why[600];
        size_t wl = strlen(g->err) < sizeof why - 1 ? strlen(g->err) : sizeof why - 1;
        memcpy(why, g->err, wl);
        why[wl] = 0;
        st = dg__fail(g, DG_ERR_PARSE, "%s: not a valid dyngraph snapshot: %s", L->path, why);
        goto undo;
    }
    for (i = 0; i < bound; i += DG__DIR_BLOCK) dg__dir_mark(&g->st[0], (dg_vertex)i);
    g->ver_ins++; g->ver_del++;
    dg__clog_lose(g);
#ifndef DYNGRAPH_NO_OPENCL
    if (g->dev) g->dev->uploaded = 0;            /* the next sync sends everything */
#endif
    goto done;
undo:
    for (s = 0; s < g->nstores; s++) g->st[s] = saved[s];
    g->id_bound = saved_n[0]; g->nverts = saved_n[1]; g->nedges = saved_n[2];
    g->narcs = saved_n[3]; g->nfree_ids = saved_n[4]; g->wmin = saved_w;
    goto done;
cut:
    st = dg__fail(g, DG_ERR_PARSE, "%s: not a valid dyngraph snapshot: cut short", L->path);
done:
    for (s = 0; s < 2; s++) dg__free(g, trip[s]);
    dg__free(g, seen); dg__free(g, bits);
    return st;
}

/* A store image into L->g: straight into its store when the page size, kind and reuse_ids
   match; else through a temporary graph of the image's own (its lists then go in as a batch,
   as a CSR snapshot's do). The 8-byte magic has been read (h: its hash state). */
static dg_status dg__load_image(dg__load_state *L) {
    dg__load_reader *r = &L->r;
    dg_graph *g = L->g, *tg = NULL;
    uint64_t head[DG__IMG_HEAD + 2 * DG__IMG_STORE], want;
    dg__wh h;
    unsigned char b[8];
    size_t nw, i, bound;
    int und, wtd, reuse, s;
    dg_status st = DG_OK;
    if (!dg__little_endian()) return dg__fail(g, DG_ERR_PARSE, "%s: this snapshot is a store image, "
                                             "which only a little-endian host reads", L->path);
    for (i = 0; i < DG__IMG_HEAD; i++) {
        if (!dg__load_bytes(r, b, 8, NULL)) return dg__snap_err(L, "cut short");
        head[i] = dg__get_u64(b);
    }
    if (head[2] != 1 && head[2] != 2) return dg__snap_err(L, "a bad header");
    nw = DG__IMG_HEAD + (size_t)head[2] * DG__IMG_STORE;
    for (; i < nw; i++) {
        if (!dg__load_bytes(r, b, 8, NULL)) return dg__snap_err(L, "cut short");
        head[i] = dg__get_u64(b);
    }
    dg__wh_init(&h);
    dg__wh_add(&h, head, nw * 8);
    if (!dg__load_bytes(r, b, 8, NULL)) return dg__snap_err(L, "cut short");
    if (dg__get_u64(b) != dg__wh_end(&h)) return dg__snap_err(L, "a damaged header");
    und = (int)(head[0] & 1); wtd = (int)((head[0] >> 1) & 1); reuse = (int)((head[0] >> 2) & 1);
    bound = (size_t)head[3];
    if (head[0] > 7 || head[1] < 64 || head[1] > 65536 || (head[1] & (head[1] - 1)) || head[2] != (uint64_t)(und ? 1 : 2) ||
        head[3] > DG__MAX_IDS || head[4] > head[3] || head[8] > head[3] || head[5] > head[6])
        return dg__snap_err(L, "a bad header");
    want = 8 + 8 * (nw + 1) + 8 * ((2 * head[2] * head[3] * 4 + 7) / 8) + 8 * ((head[8] * 4 + 7) / 8) + 8;
    for (s = 0; s < (int)head[2]; s++) {
        const uint64_t *sh = head + DG__IMG_HEAD + s * DG__IMG_STORE;
        if (sh[0] > DG__MAX_PAGES || sh[8] > ((uint64_t)1 << 31)) return dg__snap_err(L, "a bad header");
        want += sh[0] * head[1] * 4 * (uint64_t)(s == 0 && wtd ? 2 : 1) + sh[0] * 16 + 8 * ((sh[0] * 12 + 7) / 8) +
                8 * ((sh[8] * 4 + 7) / 8);
    }
    if ((st = dg__snap_fits(L, und, wtd, want)) != DG_OK) return st;
    if (head[1] == g->P && reuse == (g->desc.reuse_ids != 0) && g->st[0].page_hw == 0 &&
        (g->nstores == 1 || g->st[1].page_hw == 0) && !g->cut)   /* (an empty graph that had
                                                         vertices keeps pages: not overwritten;
                                                         a sharded one takes the lists by a batch,
                                                         which keeps its pages to one shard) */
        return dg__img_fill(L, g, head, h);
    {   /* another page size (or reuse_ids, or old pages): the image's own graph first, then
           its lists */
        dg_desc d = g->desc;
        size_t v, k = 0, n = 0;
        d.page_size = (uint32_t)head[1];
        d.reuse_ids = reuse;
        d.device = NULL; d.context = NULL; d.queue = NULL;
        d.logger.func = NULL;
        if ((st = dg_create(&d, &tg)) != DG_OK) return dg__fail(g, st, "%s: loading a snapshot of page size %u", L->path, (unsigned)head[1]);
        if ((st = dg__img_fill(L, tg, head, h)) != DG_OK) {
            st = dg__fail(g, st, "%s", dg_error_message(tg));
            goto done;
        }
        L->edges = (dg_edge *)dg__alloc(g, (tg->narcs ? tg->narcs : 1) * sizeof(dg_edge));
        L->dead = (dg_vertex *)dg__alloc(g, (bound ? bound : 1) * sizeof(dg_vertex));
        if (!L->edges || !L->dead) { st = dg__oom(g, "loading a snapshot"); goto done; }
        L->cap = tg->narcs;
        for (v = 0; v < bound; v++) {
            int32_t j, runs;
            if (!dg__alive(tg, (dg_vertex)v)) { L->dead[L->ndead++] = (dg_vertex)v; continue; }
            runs = dg__list_runs(tg, &tg->st[0], (dg_vertex)v);
            for (j = 0; j < runs; j++) {
                uint32_t len, x;
                size_t at = dg__list_run(tg, &tg->st[0], (dg_vertex)v, j, &len);
                for (x = 0; x < len; x++, k++) {
                    dg_edge *e = &L->edges[n];
                    e->src = (dg_vertex)v; e->dst = tg->st[0].pool[at + x];
                    e->weight = tg->st[0].wpool ? tg->st[0].wpool[at + x] : 1.0f;
                    if (!und || e->dst >= e->src) n++;
                }
            }
        }
        L->nedges = n;
        L->need = bound;
        L->flags = 0;
    }
done:
    if (tg) dg_destroy(tg);
    return st;
}

/* Reads the whole snapshot into L (edges, need, dead); the commit applies it. A store image
   (DGSNAP2) goes into the graph at once instead (dg__load_image). */
static dg_status dg__load_snapshot(dg__load_state *L) {
    dg__load_reader *r = &L->r;
    dg_graph *g = L->g;
    unsigned char b[32];
    uint64_t h = DG__FNV_SEED, flags, bound, arcs, i, words, k = 0;
    uint32_t *deg = NULL;
    uint64_t *alive = NULL;
    dg_status st = DG_OK;
    size_t v;
    unsigned long long at = r->done - r->len + r->pos;   /* bytes before the magic */
    if (!dg__load_bytes(r, b, 8, &h)) return dg__snap_err(L, "no header");
    if (memcmp(b, DG__IMG_MAGIC, 8) == 0)   /* (its words lie at multiples of 8 in the file) */
        return at ? dg__snap_err(L, "it does not begin at the first byte") : dg__load_image(L);
    if (memcmp(b, DG__SNAP_MAGIC, 8) != 0 || !dg__load_bytes(r, b + 8, 24, &h)) return dg__snap_err(L, "no header");
    flags = dg__get_u64(b + 8);
    bound = dg__get_u64(b + 16);
    arcs = dg__get_u64(b + 24);
    if (flags > 3 || bound > DG__MAX_IDS || arcs > ((uint64_t)1 << 40) || arcs > (uint64_t)((size_t)-1 / sizeof(dg_edge)) ||
        (bound == 0 && arcs))
        return dg__snap_err(L, "a bad header");
    words = (bound + 63) / 64;
    /* the sizes must be those of the file before anything is allocated for them */
    if ((st = dg__snap_fits(L, (int)(flags & 1), (int)((flags >> 1) & 1),
                            32 + 8 * words + 4 * bound + 4 * arcs * (flags & 2 ? 2 : 1) + 8)) != DG_OK)
        return st;
    deg = (uint32_t *)dg__alloc(g, (size_t)(bound ? bound : 1) * sizeof(uint32_t));
    alive = (uint64_t *)dg__alloc(g, (size_t)(words ? words : 1) * sizeof(uint64_t));
    L->edges = (dg_edge *)dg__alloc(g, (size_t)(arcs ? arcs : 1) * sizeof(dg_edge));
    L->dead = (dg_vertex *)dg__alloc(g, (size_t)(bound ? bound : 1) * sizeof(dg_vertex));
    if (!deg || !alive || !L->edges || !L->dead) { st = dg__oom(g, "loading a snapshot"); goto done; }
    L->cap = (size_t)arcs;
    for (i = 0; i < words; i++) {
        if (!dg__load_bytes(r, b, 8, &h)) { st = dg__snap_err(L, "cut short"); goto done; }
        alive[i] = dg__get_u64(b);
    }
    for (v = 0; v < bound; v++) {
        if (!dg__load_bytes(r, b, 4, &h)) { st = dg__snap_err(L, "cut short"); goto done; }
        deg[v] = dg__get_u32(b);
        k += deg[v];
        if (!((alive[v / 64] >> (v % 64)) & 1)) {
            if (deg[v]) { st = dg__snap_err(L, "a removed id has edges"); goto done; }
            L->dead[L->ndead++] = (dg_vertex)v;
        }
    }
    if (k != arcs) { st = dg__snap_err(L, "the degrees do not add up to the arcs"); goto done; }
    for (v = 0, i = 0; v < bound; v++) {
        uint32_t j;
        for (j = 0; j < deg[v]; j++, i++) {
            uint32_t t;
            if (!dg__load_bytes(r, b, 4, &h)) { st = dg__snap_err(L, "cut short"); goto done; }
            t = dg__get_u32(b);
            if (t >= bound || !((alive[t / 64] >> (t % 64)) & 1)) { st = dg__snap_err(L, "an arc to a missing vertex"); goto done; }
            L->edges[i].src = (dg_vertex)v;
            L->edges[i].dst = (dg_vertex)t;
            L->edges[i].weight = 1.0f;
        }
    }
    if (flags & 2)
        for (i = 0; i < arcs; i++) {
            uint32_t u;
            if (!dg__load_bytes(r, b, 4, &h)) { st = dg__snap_err(L, "cut short"); goto done; }
            u = dg__get_u32(b);
            memcpy(&L->edges[i].weight, &u, 4);
            if (L->edges[i].weight != L->edges[i].weight) { st = dg__snap_err(L, "a NaN weight"); goto done; }
        }
    if (!dg__load_bytes(r, b, 8, NULL) || dg__get_u64(b) != h) { st = dg__snap_err(L, "the checksum does not match"); goto done; }
    if (dg__load_bytes(r, b, 1, NULL)) { st = dg__snap_err(L, "bytes after the end"); goto done; }
    L->nedges = (size_t)arcs;
    if (flags & 1) {                              /* each edge once: the batch adds both arcs */
        size_t n = 0;
        for (i = 0; i < arcs; i++)
            if (L->edges[i].dst >= L->edges[i].src) L->edges[n++] = L->edges[i];
        L->nedges = n;
    }
    L->need = (size_t)bound;
    L->flags = 0;                                 /* no repeats: the weights as they are */
done:
    if (deg) dg__free(g, deg);
    if (alive) dg__free(g, alive);
    return st;
}

/* ---- format detection ---- */

static int dg__load_ext_is(const char *ext, const char *word) {
    return dg__load_word_ci(ext, strlen(ext), word);
}

/* A snapshot by its first bytes; else by extension, else by the first non-blank line of the
   first block, else edge list. */
static dg_format dg__load_detect(const char *path, const dg__load_reader *r) {
    const char *base = path, *p, *ext = NULL;
    size_t i, n;
    if (r->len - r->pos >= 8 && (memcmp(r->buf + r->pos, DG__SNAP_MAGIC, 8) == 0 ||
                                 memcmp(r->buf + r->pos, DG__IMG_MAGIC, 8) == 0)) return DG_FORMAT_SNAPSHOT;
    for (p = path; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1;
    for (p = base; *p; p++)
        if (*p == '.') ext = p + 1;
    if (ext) {
        if (dg__load_ext_is(ext, "mtx")) return DG_FORMAT_MATRIX_MARKET;
        if (dg__load_ext_is(ext, "gr")) return DG_FORMAT_DIMACS;
        if (dg__load_ext_is(ext, "graph") || dg__load_ext_is(ext, "metis")) return DG_FORMAT_METIS;
        if (dg__load_ext_is(ext, "gra")) return DG_FORMAT_GRAIL;
    }
    i = r->pos;
    n = r->len;
    while (i < n && (r->buf[i] == ' ' || r->buf[i] == '\t' || r->buf[i] == '\r' ||
                     r->buf[i] == '\n'))
        i++;
    if (n - i >= 14 && dg__load_word_ci(r->buf + i, 14, "%%matrixmarket"))
        return DG_FORMAT_MATRIX_MARKET;
    if (n - i >= 16 && memcmp(r->buf + i, "graph_for_greach", 16) == 0)
        return DG_FORMAT_GRAIL;
    if (i < n && r->buf[i] == 'c' &&
        (i + 1 == n || r->buf[i + 1] == ' ' || r->buf[i + 1] == '\t' ||
         r->buf[i + 1] == '\r' || r->buf[i + 1] == '\n'))
        return DG_FORMAT_DIMACS;
    if (i < n && r->buf[i] == 'p') {
        size_t j = i + 1;
        while (j < n && (r->buf[j] == ' ' || r->buf[j] == '\t')) j++;
        if (j > i + 1 && n - j >= 2 && r->buf[j] == 's' && r->buf[j + 1] == 'p')
            return DG_FORMAT_DIMACS;
    }
    return DG_FORMAT_EDGE_LIST;
}

/* ---- applying the batch ---- */

/* dst = src, cut to size - 1 characters (the graph's message is about to be rewritten). */
static void dg__load_copy_message(char *dst, size_t size, const char *src) {
    size_t i = 0;
    for (; i + 1 < size && src[i]; i++) dst[i] = src[i];
    dst[i] = '\0';
}

/* Stable LSD radix sort of n 32-bit keys (a into tmp and back; returns the sorted one). */
static uint32_t *dg__sort_u32(uint32_t *a, uint32_t *tmp, size_t n) {
    size_t cnt[256], i, d;
    unsigned shift;
    for (shift = 0; shift < 32; shift += 8) {
        uint32_t *t;
        size_t sum = 0;
        memset(cnt, 0, sizeof cnt);
        for (i = 0; i < n; i++) cnt[(a[i] >> shift) & 255]++;
        if (cnt[(a[0] >> shift) & 255] == n) continue;     /* one digit value: nothing moves */
        for (d = 0; d < 256; d++) { size_t x = cnt[d]; cnt[d] = sum; sum += x; }
        for (i = 0; i < n; i++) tmp[cnt[(a[i] >> shift) & 255]++] = a[i];
        t = a; a = tmp; tmp = t;
    }
    return a;
}

/* compact_ids: the ids the edges name, sorted and made unique, become old_bound + 0..k-1. */
static dg_status dg__load_compact(dg__load_state *L) {
    dg_graph *g = L->g;
    size_t m = L->nedges, n = 2 * m, k = 0, i, cap = L->opt->id_map_capacity;
    uint32_t *a, *b, *ids;
    L->need = L->old_bound;
    L->removed_line = 0;                          /* file ids are not the graph's */
    if (m == 0) return DG_OK;
    a = (uint32_t *)dg__alloc(g, n * sizeof(uint32_t));
    b = (uint32_t *)dg__alloc(g, n * sizeof(uint32_t));
    if (!a || !b) {
        if (a) dg__free(g, a);
        if (b) dg__free(g, b);
        return dg__fail(g, DG_ERR_OUT_OF_MEMORY, "%s: out of memory for compacting the ids", L->path);
    }
    for (i = 0; i < m; i++) { a[2 * i] = (uint32_t)L->edges[i].src; a[2 * i + 1] = (uint32_t)L->edges[i].dst; }
    ids = dg__sort_u32(a, b, n);
    for (i = 0; i < n; i++)
        if (i == 0 || ids[i] != ids[i - 1]) ids[k++] = ids[i];
    if (k > (size_t)DG__MAX_IDS - L->old_bound) {
        dg__free(g, a);
        dg__free(g, b);
        return dg__fail(g, DG_ERR_LIMIT, "%s: %zu more vertices would pass the limit of %u ids", L->path,
                        k, (unsigned)DG__MAX_IDS);
    }
    for (i = 0; i < m; i++) {                     /* the rank of each id among the k */
        dg_edge *e = &L->edges[i];
        size_t lo = 0, hi = k, mid;
        while (hi - lo > 1) { mid = (lo + hi) / 2; if (ids[mid] <= (uint32_t)e->src) lo = mid; else hi = mid; }
        e->src = (dg_vertex)(L->old_bound + lo);
        lo = 0; hi = k;
        while (hi - lo > 1) { mid = (lo + hi) / 2; if (ids[mid] <= (uint32_t)e->dst) lo = mid; else hi = mid; }
        e->dst = (dg_vertex)(L->old_bound + lo);
    }
    if (L->opt->id_map)
        for (i = 0; i < k && L->old_bound + i < cap; i++) L->opt->id_map[L->old_bound + i] = (int64_t)ids[i];
    L->need = L->old_bound + k;
    dg__free(g, a);
    dg__free(g, b);
    return DG_OK;
}

static dg_status dg__load_commit(dg__load_state *L) {
    char why[256];
    dg_status s;
    size_t added = 0, i;
    if (L->opt->compact_ids && (s = dg__load_compact(L)) != DG_OK) return s;
    if (L->removed_line) {
        if (L->one_based)
            return dg__load_err_at(L, DG_ERR_NOT_FOUND, L->removed_line,
                                   "vertex %ld was removed (%ld in this 1-based file)",
                                   (long)L->removed_id, (long)L->removed_id + 1);
        return dg__load_err_at(L, DG_ERR_NOT_FOUND, L->removed_line, "vertex %ld was removed",
                               (long)L->removed_id);
    }
    if (L->need > L->old_bound) {
        dg_vertex first;
        s = dg_add_vertices(L->g, L->need - L->old_bound, &first);
        if (s != DG_OK) {
            dg__load_copy_message(why, sizeof why, dg_error_message(L->g));
            return dg__fail(L->g, s, "%s: cannot create vertices up to id %llu: %s", L->path,
                            (unsigned long long)L->need - 1, why);
        }
    }
    if (L->nedges) {
        s = dg__add_edges_ex(L->g, L->edges, L->nedges, L->flags | DG__BATCH_OWN, &added);
        L->edges = NULL;                          /* the batch's now (freed as soon as it can) */
        if (s != DG_OK) {
            dg__load_copy_message(why, sizeof why, dg_error_message(L->g));
            if (L->need > L->old_bound) dg__truncate_vertices(L->g, L->old_bound);
            return dg__fail(L->g, s, "%s: adding %llu edges failed: %s", L->path,
                            (unsigned long long)L->nedges, why);
        }
    }
    for (i = 0; i < L->ndead; i++)                /* snapshot: removed ids (isolated) go again */
        (void)dg_remove_vertex(L->g, L->dead[i]);
    return DG_OK;
}

DG_API dg_status dg_load(dg_graph *g, const char *path, dg_format format) {
    dg_load_options o;
    memset(&o, 0, sizeof o);
    o.format = format;
    return dg_load_ex(g, path, &o);
}

/* The options' checks, and L made ready for a source named path (a file or the caller's
   bytes). */
static dg_status dg__load_begin(dg_graph *g, const char *path, const dg_load_options *opt, dg__load_state *L) {
    dg_format format = opt->format;
    if ((int)format < (int)DG_FORMAT_AUTO || (int)format > (int)DG_FORMAT_SNAPSHOT)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_load: unknown format %d", (int)format);
    if (opt->id_map && !opt->compact_ids)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_load_ex: id_map needs compact_ids");
    if (opt->compact_ids != 0 && opt->compact_ids != 1)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_load_ex: compact_ids must be 0 or 1");
    memset(L, 0, sizeof *L);
    {   /* the pages a device batch wrote */
        dg_status fs = dg__fresh_all(g);
        if (fs != DG_OK) return fs;
    }
    L->opt = opt;
    L->g = g;
    L->path = path;
    L->weighted = dg__is_weighted(g);
    L->flags = DG__BATCH_KEEP_MIN;
    L->old_bound = dg_vertex_id_bound(g);
    L->r.line = 1;
    L->r.progress = opt->progress;
    L->r.progress_user = opt->progress_user;
    return DG_OK;
}

static dg_status dg__load_run(dg__load_state *L);

DG_API dg_status dg_load_ex(dg_graph *g, const char *path, const dg_load_options *opt) {
    dg__load_state L;
    dg_load_options none;
    dg_status s;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if (!opt) { memset(&none, 0, sizeof none); opt = &none; }
    if (!path) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_load: path is NULL");
    if ((s = dg__load_begin(g, path, opt, &L)) != DG_OK) return s;
    L.r.buf = (char *)dg__alloc(g, DG__LOAD_CHUNK);
    if (!L.r.buf) return dg__fail(g, DG_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    errno = 0;
    L.r.f = fopen(path, "rb");
    if (!L.r.f) {
        int e = errno;
        dg__free(g, L.r.buf);
        return dg__fail(g, DG_ERR_IO, "%s: %s", path, e ? strerror(e) : "cannot open the file");
    }
    if (fseek(L.r.f, 0, SEEK_END) == 0) {        /* the size, for the progress reports */
        long end = ftell(L.r.f);
        if (end > 0) L.r.total = (unsigned long long)end;
        if (fseek(L.r.f, 0, SEEK_SET) != 0) L.r.total = 0;
        clearerr(L.r.f);
    }
    s = dg__load_run(&L);
    fclose(L.r.f);
    dg__free(g, L.r.buf);
    return s;
}

DG_API dg_status dg_load_memory(dg_graph *g, const void *data, size_t size, const char *name,
                                const dg_load_options *opt) {
    dg__load_state L;
    dg_load_options none;
    dg_status s;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if (!opt) { memset(&none, 0, sizeof none); opt = &none; }
    if (!data && size) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_load_memory: NULL data");
    if ((s = dg__load_begin(g, name ? name : "memory", opt, &L)) != DG_OK) return s;
    L.r.mem = data ? (const char *)data : "";
    L.r.msize = size;
    L.r.total = size;
    return dg__load_run(&L);
}

/* Parses L0's source (its first block not yet read) and applies it, on a copy of L0; frees
   what the parse allocated (the source stays the caller's). */
static dg_status dg__load_run(dg__load_state *L0) {
    dg__load_state L = *L0;
    dg_graph *g = L.g;
    dg__clog_lose(g);                            /* results start again after a load */
    const char *path = L.path;
    const dg_load_options *opt = L.opt;
    dg_format format = opt->format;
    dg_status s;
    dg__load_fill(&L.r);
    if (L.r.len >= 3 && (unsigned char)L.r.buf[0] == 0xEF && (unsigned char)L.r.buf[1] == 0xBB &&
        (unsigned char)L.r.buf[2] == 0xBF)
        L.r.pos = 3;                                    /* UTF-8 byte order mark */
    if (L.r.len >= 2 && (unsigned char)L.r.buf[0] == 0x1F && (unsigned char)L.r.buf[1] == 0x8B) {
        s = dg__load_err(&L, "a gzip-compressed file: decompress it first");
    } else {
        if (format == DG_FORMAT_AUTO) format = dg__load_detect(path, &L.r);
        switch (format) {
        case DG_FORMAT_MATRIX_MARKET:
            L.one_based = 1;
            s = dg__load_matrix_market(&L);
            break;
        case DG_FORMAT_DIMACS:
            L.one_based = 1;
            s = dg__load_dimacs(&L);
            break;
        case DG_FORMAT_METIS:
            L.one_based = 1;
            s = dg__load_metis(&L);
            break;
        case DG_FORMAT_GRAIL:
            s = dg__load_grail(&L);
            break;
        case DG_FORMAT_SNAPSHOT:
            s = opt->compact_ids ? dg__fail(g, DG_ERR_INVALID_ARGUMENT, "%s: a snapshot keeps its ids "
                                            "(compact_ids is for text files)", path)
                                 : dg__load_snapshot(&L);
            break;
        case DG_FORMAT_AUTO:
        case DG_FORMAT_EDGE_LIST:
        default:
            s = dg__load_edge_list(&L);
            break;
        }
    }
    if (L.r.ioerr)
        s = dg__fail(g, DG_ERR_IO, "%s:%llu: read error: %s", path, L.r.line,
                     strerror(L.r.ioerrno));
    if (s == DG_OK && L.r.progress) L.r.progress(1.0, L.r.progress_user);
    if (s == DG_OK) s = dg__load_commit(&L);
    if (L.edges) dg__free(g, L.edges);
    if (L.skip) dg__free(g, L.skip);
    if (L.dead) dg__free(g, L.dead);
    return s;
}

/* =========================================================================
   SAVING AND EXPORTING (dg_export_csr, dg_save)   >>save
   =========================================================================
   Both read the out-store on the host. Lists come out in increasing target
   order (each list is sorted on its way out). Text files keep the graph's ids
   and name the id bound where the format has a place for it (Matrix Market,
   DIMACS, METIS and GRAIL headers; an edge list's "# vertices N" comment,
   which dg_load reads), so a load gives back every id, removed ones as
   isolated vertices. Weights are written with 9 significant digits: the
   shortest decimal form that reads back as the same float. A file is written
   to "path.tmp" first and renamed over path at the end: a failed save leaves
   an existing file as it was. */

typedef struct dg__tw { dg_vertex t; float w; } dg__tw;
static int dg__tw_cmp(const void *a, const void *b) {
    dg_vertex x = ((const dg__tw *)a)->t, y = ((const dg__tw *)b)->t;
    return (x > y) - (x < y);
}
/* The out-list of the live vertex v, sorted by target, into buf; returns its length. */
static size_t dg__sorted_list(const dg_graph *g, dg_vertex v, dg__tw *buf) {
    const dg__store *s = &g->st[0];
    int32_t j, runs = dg__list_runs(g, s, v);
    size_t n = 0;
    for (j = 0; j < runs; j++) {
        uint32_t len, i;
        size_t at = dg__list_run(g, s, v, j, &len);
        for (i = 0; i < len; i++, n++) {
            buf[n].t = s->pool[at + i];
            buf[n].w = s->wpool ? s->wpool[at + i] : 1.0f;
        }
    }
    if (n > 1) qsort(buf, n, sizeof *buf, dg__tw_cmp);
    return n;
}
/* Scratch for the longest out-list. */
static dg__tw *dg__list_scratch(dg_graph *g) {
    size_t v, most = 1;
    for (v = 0; v < g->id_bound; v++)
        if (dg__alive(g, (dg_vertex)v)) {
            size_t d = dg__deg(g, &g->st[0], (dg_vertex)v);
            if (d > most) most = d;
        }
    return (dg__tw *)dg__alloc(g, most * sizeof(dg__tw));
}

DG_API dg_status dg_export_csr(const dg_graph *cg, int64_t *offsets, dg_vertex *targets, float *weights) {
    dg_graph *g = (dg_graph *)(uintptr_t)cg;   /* for the error message only */
    size_t v, n = 0;
    dg__tw *buf;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if (!offsets) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_export_csr: NULL offsets");
    {   /* the pages a device batch wrote */
        dg_status fs = dg__fresh_all(g);
        if (fs != DG_OK) return fs;
    }
    if (!targets) {
        for (v = 0; v < g->id_bound; v++) {
            offsets[v] = (int64_t)n;
            if (dg__alive(g, (dg_vertex)v)) n += dg__deg(g, &g->st[0], (dg_vertex)v);
        }
        offsets[g->id_bound] = (int64_t)n;
        return DG_OK;
    }
    if (!(buf = dg__list_scratch(g))) return dg__oom(g, "dg_export_csr: a list's scratch");
    for (v = 0; v < g->id_bound; v++) {
        size_t d = 0, i;
        offsets[v] = (int64_t)n;
        if (dg__alive(g, (dg_vertex)v)) d = dg__sorted_list(g, (dg_vertex)v, buf);
        for (i = 0; i < d; i++) {
            targets[n + i] = buf[i].t;
            if (weights) weights[n + i] = buf[i].w;
        }
        n += d;
    }
    offsets[g->id_bound] = (int64_t)n;
    dg__free(g, buf);
    return DG_OK;
}

/* ---- the snapshot: "DGSNAP1\0", then little-endian u64s: flags (1 undirected, 2 weighted),
   id bound, arcs; the alive bits (one u64 per 64 ids); per id its out-degree (u32); the targets
   (u32 each), in increasing order per list; the weights (f32 bits) if weighted; last the FNV-1a
   hash of everything before it (u64). ---- */
typedef struct dg__writer {
    FILE *f;
    uint64_t hash;
    dg__wh wh;                   /* the store image's hash (dg__save_image) */
    int err;
} dg__writer;
static void dg__w_bytes(dg__writer *w, const void *p, size_t n) {
    if (w->err || n == 0) return;
    w->hash = dg__fnv(w->hash, (const char *)p, n);
    if (fwrite(p, 1, n, w->f) != n) w->err = errno ? errno : EIO;
}
static void dg__w_u64(dg__writer *w, uint64_t v) { unsigned char b[8]; dg__put_u64(b, v); dg__w_bytes(w, b, 8); }
static void dg__w_u32(dg__writer *w, uint32_t v) {
    unsigned char b[4];
    b[0] = (unsigned char)v; b[1] = (unsigned char)(v >> 8); b[2] = (unsigned char)(v >> 16); b[3] = (unsigned char)(v >> 24);
    dg__w_bytes(w, b, 4);
}
static uint32_t dg__f32_bits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }

static void dg__save_snapshot(dg_graph *g, dg__writer *w, dg__tw *buf) {
    size_t v, i, d;
    uint64_t word = 0;
    dg__w_bytes(w, DG__SNAP_MAGIC, 8);
    dg__w_u64(w, (uint64_t)(g->desc.undirected ? 1 : 0) | (uint64_t)(dg__is_weighted(g) ? 2 : 0));
    dg__w_u64(w, (uint64_t)g->id_bound);
    dg__w_u64(w, (uint64_t)g->narcs);
    for (v = 0; v < g->id_bound; v++) {
        if (dg__alive(g, (dg_vertex)v)) word |= (uint64_t)1 << (v & 63);
        if ((v & 63) == 63 || v + 1 == g->id_bound) { dg__w_u64(w, word); word = 0; }
    }
    for (v = 0; v < g->id_bound; v++)
        dg__w_u32(w, dg__alive(g, (dg_vertex)v) ? dg__deg(g, &g->st[0], (dg_vertex)v) : 0);
    for (v = 0; v < g->id_bound; v++) {
        if (!dg__alive(g, (dg_vertex)v)) continue;
        d = dg__sorted_list(g, (dg_vertex)v, buf);
        for (i = 0; i < d; i++) dg__w_u32(w, (uint32_t)buf[i].t);
    }
    if (dg__is_weighted(g))
        for (v = 0; v < g->id_bound; v++) {
            if (!dg__alive(g, (dg_vertex)v)) continue;
            d = dg__sorted_list(g, (dg_vertex)v, buf);
            for (i = 0; i < d; i++) dg__w_u32(w, dg__f32_bits(buf[i].w));
        }
    if (!w->err) {
        unsigned char b[8];
        dg__put_u64(b, w->hash);
        if (fwrite(b, 1, 8, w->f) != 8) w->err = errno ? errno : EIO;
    }
}

/* ---- the store image: DG_FORMAT_SNAPSHOT as dg_save writes it on a little-endian host.
   "DGSNAP2\0", then 8-byte words: the header (DG__IMG_HEAD words: flags (1 undirected,
   2 weighted, 4 reuse_ids), page size, stores, id bound, vertices, edges, arcs, smallest
   weight (float bits), free ids; then per store DG__IMG_STORE words: pages handed out, free
   list head (+1), free pages, first and last page (+1), live pages, large lists, large pages,
   LA-table length and garbage) and its hash; then the arrays as they are in memory, each
   padded to 8 bytes: the directory, per store its pages, weights, page index, page links and
   fill (3 ints a page) and LA table; the free ids; last the hash of every word from the header
   on (dg__wh). Loading reads the arrays straight into the store (>>load, dg__load_image):
   no parsing, sorting or layout. A big-endian host writes the CSR form (DGSNAP1) instead. */
/* n bytes, then zeros to the next multiple of 8; all hashed. */
static void dg__img_put(dg__writer *w, const void *p, size_t n) {
    size_t full = n & ~(size_t)7;
    if (w->err) return;
    if (full) {
        dg__wh_add(&w->wh, p, full);
        if (fwrite(p, 1, full, w->f) != full) { w->err = errno ? errno : EIO; return; }
    }
    if (n > full) {
        unsigned char b[8];
        memset(b, 0, 8);
        memcpy(b, (const unsigned char *)p + full, n - full);
        dg__wh_add(&w->wh, b, 8);
        if (fwrite(b, 1, 8, w->f) != 8) w->err = errno ? errno : EIO;
    }
}
/* The header words of g (head: DG__IMG_HEAD + 2 x DG__IMG_STORE of them). */
static size_t dg__img_head(const dg_graph *g, uint64_t *head) {
    size_t k = 0;
    int i;
    uint32_t wb;
    memcpy(&wb, &g->wmin, 4);
    head[k++] = (uint64_t)(g->desc.undirected ? 1 : 0) | (uint64_t)(dg__is_weighted(g) ? 2 : 0) |
                (uint64_t)(g->desc.reuse_ids ? 4 : 0);
    head[k++] = g->P; head[k++] = (uint64_t)g->nstores; head[k++] = g->id_bound; head[k++] = g->nverts;
    head[k++] = g->nedges; head[k++] = g->narcs; head[k++] = wb; head[k++] = g->nfree_ids;
    for (i = 0; i < g->nstores; i++) {
        const dg__store *s = &g->st[i];
        head[k++] = s->page_hw; head[k++] = (uint64_t)(s->free_head + 1); head[k++] = s->nfree;
        head[k++] = (uint64_t)(s->head + 1); head[k++] = (uint64_t)(s->tail + 1);
        head[k++] = s->live_pages; head[k++] = s->large_lists; head[k++] = s->large_pages;
        head[k++] = s->latab_len; head[k++] = s->latab_garbage;
    }
    return k;
}
static void dg__save_image(dg_graph *g, dg__writer *w) {
    uint64_t head[DG__IMG_HEAD + 2 * DG__IMG_STORE], hh;
    size_t k = dg__img_head(g, head), p;
    int i;
    int32_t trip[3 * 1024];
    unsigned char b[8];
    dg__wh_init(&w->wh);
    if (fwrite(DG__IMG_MAGIC, 1, 8, w->f) != 8) { w->err = errno ? errno : EIO; return; }
    dg__img_put(w, head, k * 8);
    hh = dg__wh_end(&w->wh);                     /* the header's own hash: a damaged header is */
    dg__put_u64(b, hh);                          /* told from one of another kind of graph */
    if (fwrite(b, 1, 8, w->f) != 8) { w->err = errno ? errno : EIO; return; }
    dg__img_put(w, g->dir, 2 * (size_t)g->nstores * g->id_bound * sizeof(int32_t));
    for (i = 0; i < g->nstores; i++) {
        dg__store *s = &g->st[i];
        size_t hw = s->page_hw;
        int32_t q;
        for (q = s->free_head; q >= 0; q = s->ph[q].next) {   /* free pages written as -1 (weights
            0): a page a device batch took and freed was never written on the host (dg__la_fresh) */
            memset(s->pool + (size_t)q * g->P, 0xff, g->P * sizeof(int32_t));
            if (s->wpool) memset(s->wpool + (size_t)q * g->P, 0, g->P * sizeof(float));
        }
        dg__img_put(w, s->pool, hw * g->P * sizeof(int32_t));
        if (s->wpool) dg__img_put(w, s->wpool, hw * g->P * sizeof(float));
        dg__img_put(w, s->idx, hw * sizeof(dg__pindex));
        for (p = 0; p < hw; p += 1024) {
            size_t j, n = hw - p < 1024 ? hw - p : 1024;
            for (j = 0; j < n; j++) {
                trip[3 * j] = s->ph[p + j].next; trip[3 * j + 1] = s->ph[p + j].prev;
                trip[3 * j + 2] = (int32_t)s->ph[p + j].fill;
            }
            dg__img_put(w, trip, 3 * n * sizeof(int32_t));   /* 12 x 1024: a multiple of 8 but the last */
        }
        dg__img_put(w, s->latab, s->latab_len * sizeof(int32_t));
    }
    dg__img_put(w, g->free_ids, g->nfree_ids * sizeof(dg_vertex));
    if (!w->err) {
        dg__put_u64(b, dg__wh_end(&w->wh));
        if (fwrite(b, 1, 8, w->f) != 8) w->err = errno ? errno : EIO;
    }
}

/* Text formats. Undirected graphs write each edge once (u <= v) where the format lists edges,
   both arcs where it lists arcs (DIMACS, GRAIL) or neighbours (METIS). */
static void dg__save_text(dg_graph *g, dg__writer *w, dg_format format, dg__tw *buf) {
    size_t v, i, d, n = g->id_bound;
    int weighted = dg__is_weighted(g), und = g->desc.undirected != 0, one = format != DG_FORMAT_EDGE_LIST &&
                   format != DG_FORMAT_GRAIL;
    char line[64];
    size_t edges = g->nedges;
    switch (format) {
    case DG_FORMAT_MATRIX_MARKET:
        fprintf(w->f, "%%%%MatrixMarket matrix coordinate %s %s\n", weighted ? "real" : "pattern",
                und ? "symmetric" : "general");
        fprintf(w->f, "%% written by dyngraph %s\n%zu %zu %zu\n", DYNGRAPH_VERSION_STRING, n, n, edges);
        break;
    case DG_FORMAT_DIMACS:
        fprintf(w->f, "c written by dyngraph %s\np sp %zu %zu\n", DYNGRAPH_VERSION_STRING, n, g->narcs);
        break;
    case DG_FORMAT_METIS:
        fprintf(w->f, "%% written by dyngraph %s\n%zu %zu%s\n", DYNGRAPH_VERSION_STRING, n, edges, weighted ? " 1" : "");
        break;
    case DG_FORMAT_GRAIL:
        fprintf(w->f, "graph_for_greach\n%zu\n", n);
        break;
    default:
        fprintf(w->f, "# written by dyngraph %s: %s%s graph, %zu edges\n# vertices %zu\n", DYNGRAPH_VERSION_STRING,
                und ? "undirected" : "directed", weighted ? ", weighted" : "", edges, n);
        break;
    }
    for (v = 0; v < n && !ferror(w->f); v++) {
        int live = dg__alive(g, (dg_vertex)v);
        d = live ? dg__sorted_list(g, (dg_vertex)v, buf) : 0;
        if (format == DG_FORMAT_METIS || format == DG_FORMAT_GRAIL) {
            if (format == DG_FORMAT_GRAIL) fprintf(w->f, "%zu:", v);
            for (i = 0; i < d; i++) {
                if (format == DG_FORMAT_METIS && weighted)
                    fprintf(w->f, "%s%ld %.9g", i ? " " : "", (long)buf[i].t + 1, (double)buf[i].w);
                else if (format == DG_FORMAT_METIS)
                    fprintf(w->f, "%s%ld", i ? " " : "", (long)buf[i].t + 1);
                else
                    fprintf(w->f, " %ld", (long)buf[i].t);
            }
            fputs(format == DG_FORMAT_GRAIL ? " #\n" : "\n", w->f);
            continue;
        }
        for (i = 0; i < d; i++) {
            dg_vertex t = buf[i].t;
            if (und && format != DG_FORMAT_DIMACS && t < (dg_vertex)v) continue;
            if (format == DG_FORMAT_MATRIX_MARKET && und)   /* the lower triangle */
                snprintf(line, sizeof line, "%ld %ld", (long)t + 1, (long)v + 1);
            else
                snprintf(line, sizeof line, "%s%ld %ld", format == DG_FORMAT_DIMACS ? "a " : "",
                         (long)v + one, (long)t + one);
            if (weighted || format == DG_FORMAT_DIMACS) fprintf(w->f, "%s %.9g\n", line, (double)buf[i].w);
            else fprintf(w->f, "%s\n", line);
        }
    }
    if (ferror(w->f) && !w->err) w->err = errno ? errno : EIO;
}

/* What a text format cannot hold: NULL if it holds the graph. */
static const char *dg__save_refuse(dg_graph *g, dg_format format, char *why, size_t cap) {
    size_t v;
    if (format == DG_FORMAT_SNAPSHOT) return NULL;
    if (format == DG_FORMAT_METIS && !g->desc.undirected)
        return "METIS holds undirected graphs only (save a directed graph as an edge list, Matrix "
               "Market, DIMACS, GRAIL or a snapshot)";
    if (format == DG_FORMAT_GRAIL && dg__is_weighted(g))
        return "GRAIL holds no weights (save a weighted graph in another format)";
    for (v = 0; v < g->id_bound; v++) {
        const dg__store *s = &g->st[0];
        int32_t j, runs;
        if (!dg__alive(g, (dg_vertex)v)) continue;
        runs = dg__list_runs(g, s, (dg_vertex)v);
        for (j = 0; j < runs; j++) {
            uint32_t len, i;
            size_t at = dg__list_run(g, s, (dg_vertex)v, j, &len);
            for (i = 0; i < len; i++) {
                float x = s->wpool ? s->wpool[at + i] : 1.0f;
                if (format == DG_FORMAT_METIS && s->pool[at + i] == (int32_t)v) {
                    snprintf(why, cap, "METIS cannot hold the self-loop on vertex %ld", (long)v);
                    return why;
                }
                if (x - x != 0) {    /* an infinity (NaN never gets in) */
                    snprintf(why, cap, "the weight of %ld->%ld is infinite, which text files cannot hold "
                             "(DG_FORMAT_SNAPSHOT can)", (long)v, (long)s->pool[at + i]);
                    return why;
                }
            }
        }
    }
    return NULL;
}

DG_API dg_status dg_save(dg_graph *g, const char *path, dg_format format) {
    char tmp[1100], why[160];
    const char *refuse;
    dg__writer w;
    dg__tw *buf = NULL;
    int image;
    if (!g) return DG_ERR_INVALID_ARGUMENT;
    if (!path) return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_save: NULL path");
    {   /* the pages a device batch wrote */
        dg_status fs = dg__fresh_all(g);
        if (fs != DG_OK) return fs;
    }
    if (format == DG_FORMAT_AUTO) format = DG_FORMAT_SNAPSHOT;
    if ((int)format < (int)DG_FORMAT_EDGE_LIST || (int)format > (int)DG_FORMAT_SNAPSHOT)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_save: unknown format %d", (int)format);
    if ((refuse = dg__save_refuse(g, format, why, sizeof why)) != NULL)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_save: %s", refuse);
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return dg__fail(g, DG_ERR_INVALID_ARGUMENT, "dg_save: the path is too long");
    image = format == DG_FORMAT_SNAPSHOT && dg__little_endian();
    if (!image && !(buf = dg__list_scratch(g))) return dg__oom(g, "dg_save: a list's scratch");
    w.hash = DG__FNV_SEED;
    w.err = 0;
    errno = 0;
    if (!(w.f = fopen(tmp, "wb"))) {
        int e = errno;
        dg__free(g, buf);
        return dg__fail(g, DG_ERR_IO, "dg_save: cannot create %s: %s", tmp, strerror(e));
    }
    if (image) dg__save_image(g, &w);
    else if (format == DG_FORMAT_SNAPSHOT) dg__save_snapshot(g, &w, buf);
    else dg__save_text(g, &w, format, buf);
    dg__free(g, buf);
    if (fclose(w.f) != 0 && !w.err) w.err = errno ? errno : EIO;
    if (!w.err && rename(tmp, path) != 0) w.err = errno ? errno : EIO;
    if (w.err) {
        remove(tmp);
        return dg__fail(g, DG_ERR_IO, "dg_save: writing %s failed: %s", path, strerror(w.err));
    }
    return DG_OK;
}

#endif /* DYNGRAPH_IMPLEMENTATION_DONE */
#endif /* DYNGRAPH_IMPLEMENTATION */

/*
   ------------------------------------------------------------------------------
   MIT License. Copyright (c) 2026 the dyngraph authors.
   Permission is hereby granted, free of charge, to any person obtaining a copy of
   this software and associated documentation files (the "Software"), to deal in
   the Software without restriction, including without limitation the rights to
   use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of
   the Software, and to permit persons to whom the Software is furnished to do so,
   subject to the following conditions: The above copyright notice and this
   permission notice shall be included in all copies or substantial portions of
   the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.
   ------------------------------------------------------------------------------
*/



