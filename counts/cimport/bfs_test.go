package cimport

// Rodinia's bfs Kernel2 (cuda/bfs/kernel2.cu, the original of
// examples/bfs2.knl) imports unedited: its bool arrays are u8, C's
// one-byte bool, as the hand port declares them. The host (bfs.cu)
// launches groups of MAX_THREADS_PER_BLOCK = 512, ceil(no_of_nodes/512)
// of them where no_of_nodes > 512, which the sizes here are. It counts
// as the hand port in TestPortsCountAsHandPorts, with the difference
// below, and runs in TestPortsRun and TestPortsOnPoCL.
func init() {
	ports = append(ports, port{"rodinia/kernel2.cu", "bfs2", []string{"-D", "MAX_THREADS_PER_BLOCK=512",
		"--local", "MAX_THREADS_PER_BLOCK", "--groups", "(no_of_nodes+511)/512",
		"--array", "g_graph_mask=no_of_nodes", "--array", "g_updating_graph_mask=no_of_nodes",
		"--array", "g_graph_visited=no_of_nodes", "--array", "g_over=1"},
		[]map[string]int64{{"no_of_nodes": 1000}, {"no_of_nodes": 5000}}})
	// C computes tid = blockIdx.x*MAX_THREADS_PER_BLOCK + threadIdx.x,
	// one multiplication and one addition, in each of the 512 work-items
	// of every group launched; the port's tid is the domain's index, free
	// as a value, because its guard is the domain. The original's guard,
	// tid < no_of_nodes && g_updating_graph_mask[tid], reads data, so it
	// is an if, and tid no index of the launch.
	handDiffs["bfs2"] = func(size map[string]int64) map[string]int64 {
		launched := 512 * ((size["no_of_nodes"] + 511) / 512)
		return map[string]int64{"int.i32.add": launched, "int.i32.mul": launched}
	}
	originals["bfs2"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		mask, upd, visited := clone(in["g_graph_mask"]), clone(in["g_updating_graph_mask"]), clone(in["g_graph_visited"])
		over := clone(in["g_over"])
		for tid := range p["no_of_nodes"] {
			if upd[tid] != 0 {
				mask[tid], visited[tid], over[0], upd[tid] = 1, 1, 1, 0
			}
		}
		return map[string][]float32{"g_graph_mask": mask, "g_updating_graph_mask": upd, "g_graph_visited": visited, "g_over": over}
	}
	// Bools are 0 or 1, a third of each array true (a different third
	// for each), and g_over starts false.
	fixInputs["Kernel2"] = func(p map[string]int64, in map[string][]float32) {
		for _, a := range []string{"g_graph_mask", "g_updating_graph_mask", "g_graph_visited"} {
			for i := range in[a] {
				in[a][i] = 0
				if (i*7+len(a))%3 == 0 {
					in[a][i] = 1
				}
			}
		}
		in["g_over"][0] = 0
	}
}
