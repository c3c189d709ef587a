package oneway

// B uses only what b.go declares.
func B() int { return c + local() }

const c = 1

func local() int { return c }
