package cimport

// Rodinia's kmeans_kernel_c (opencl/kmeans/kmeans.cl, the original of
// examples/kmeans_kernel_c.knl) imports unedited: index, declared with 0
// before the loop over the clusters and set to its i under if (dist <
// min_dist), which reads data, is a private variable, as the hand port
// writes it, and the kernel's last statement, return;, ends it. kmeans.cpp
// launches groups of BLOCK_SIZE2 = 256 over npoints rounded up to them;
// the arguments offset and size, which the kernel does not read, are
// sizes the counts do not depend on. It counts as the hand port in
// TestPortsCountAsHandPorts and runs in TestPortsRun and TestPortsOnPoCL.
func init() {
	ports = append(ports, port{"rodinia/kmeans.cl", "kmeans_kernel_c", []string{"--kernel", "kmeans_kernel_c", "--local", "256", "--global", "npoints",
		"--array", "feature=nfeatures*npoints", "--array", "clusters=nclusters*nfeatures", "--array", "membership=npoints"},
		[]map[string]int64{{"npoints": 300, "nclusters": 5, "nfeatures": 7, "offset": 0, "size": 0},
			{"npoints": 1000, "nclusters": 3, "nfeatures": 34, "offset": 0, "size": 0}}})
	// Each point's nearest centre by squared distance over the
	// features (feature[l*npoints + p], kmeans_swap's layout); the first
	// of equal distances wins, as dist < min_dist keeps it.
	originals["kmeans_kernel_c"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		np, nc, nf := p["npoints"], p["nclusters"], p["nfeatures"]
		member := clone(in["membership"])
		for pt := range np {
			minDist, index := float32(3.40282347e+38), int64(0)
			for i := range nc {
				ans := float32(0)
				for l := range nf {
					d := float32(in["feature"][l*np+pt] - in["clusters"][i*nf+l])
					ans = float32(ans + float32(d*d))
				}
				if ans < minDist {
					minDist, index = ans, i
				}
			}
			member[pt] = float32(index)
		}
		return map[string][]float32{"membership": member}
	}
}
