package cimport

// cuda-samples' six other transposes of transpose.cu (the originals of
// examples/transpose_*.knl), which TestCorpusCountsAsHandPorts counts,
// also run in TestPortsRun and TestPortsOnPoCL against Go
// reimplementations, with the ports' tile of 32 and 16 rows, at square
// sizes (transposeFineGrained writes odata[index + i*height], inside the
// matrix only where it is square, as the sample runs it).
func init() {
	for _, k := range []struct{ knl, kernel string }{{"transpose_copy", "copy"}, {"transpose_copyshared", "copySharedMem"},
		{"transpose_naive", "transposeNaive"}, {"transpose_coalesced", "transposeCoalesced"},
		{"transpose_finegrained", "transposeFineGrained"}, {"transpose_coarsegrained", "transposeCoarseGrained"}} {
		ports = append(ports, port{"cuda-samples/transpose.cu", k.knl, []string{"--kernel", k.kernel, "-D", "TILE_DIM=32", "-D", "BLOCK_ROWS=16",
			"--local", "TILE_DIM,BLOCK_ROWS", "--groups", "width/TILE_DIM,height/TILE_DIM",
			"--assume", "width % 32 == 0 && height % 32 == 0", "--array", "odata=width*height", "--array", "idata=width*height"},
			[]map[string]int64{{"width": 64, "height": 64}, {"width": 96, "height": 96}}})
		originals[k.knl] = transposeSample(k.kernel)
	}
}

// transposeSample runs kernel of transpose.cu block by block, each
// thread's loop over its rows (i += BLOCK_ROWS) as there; where the
// kernel stages a tile in shared memory, every thread of the block
// stores it before any reads it (the cg::sync between).
func transposeSample(kernel string) original {
	return func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		const tile, rows = 32, 16
		w, h := p["width"], p["height"]
		idata, odata := in["idata"], clone(in["odata"])
		for by := range h / tile {
			for bx := range w / tile {
				var block [tile][tile + 1]float32
				for phase := range 2 {
					for ty := range int64(rows) {
						for tx := range int64(tile) {
							x, y := bx*tile+tx, by*tile+ty
							index := x + w*y
							out := by*tile + tx + (bx*tile+ty)*h
							for i := int64(0); i < tile; i += rows {
								switch {
								case phase == 0 && kernel == "copy":
									odata[index+i*w] = idata[index+i*w]
								case phase == 0 && kernel == "transposeNaive":
									odata[y+h*x+i] = idata[index+i*w]
								case phase == 0 && kernel == "copySharedMem":
									if x < w && y < h {
										block[ty+i][tx] = idata[index+i*w]
									}
								case phase == 0:
									block[ty+i][tx] = idata[index+i*w]
								case kernel == "copySharedMem":
									if x < h && y < w {
										odata[index+i*w] = block[ty+i][tx]
									}
								case kernel == "transposeCoalesced":
									odata[out+i*h] = block[tx][ty+i]
								case kernel == "transposeFineGrained":
									odata[index+i*h] = block[tx][ty+i]
								case kernel == "transposeCoarseGrained":
									odata[out+i*h] = block[ty+i][tx]
								}
							}
						}
					}
				}
			}
		}
		return map[string][]float32{"odata": odata}
	}
}
