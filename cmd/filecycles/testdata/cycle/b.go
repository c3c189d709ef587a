package cycle

// B uses a.go's method through a value of a type a.go declares.
func B() int { return T{}.M() }
