package weightsio_test

import (
	"fmt"
	"math"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/weightsio"
)

// A weight table survives the round trip through its Arrow IPC form; a
// table with a weight that is not finite is refused before it is written.
func ExampleEncodeWeights() {
	props := []string{"global.load.f32.stride=1", "launch.const"}
	w := &fit.Weights{Device: "R9 Fury", Model: fit.ModelUnified, PropertySet: fit.PropertySetID(props),
		Properties: props, Values: []float64{8.27e-12, 1.29e-4}}
	data, err := weightsio.EncodeWeights(w)
	if err != nil {
		fmt.Println(err)
		return
	}
	back, err := weightsio.DecodeWeights(data)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, p := range back.Properties {
		fmt.Printf("%s %s %g\n", back.Device, p, back.Values[i])
	}
	w.Values[1] = math.Inf(1)
	_, err = weightsio.EncodeWeights(w)
	fmt.Println(err != nil)
	// Output:
	// R9 Fury global.load.f32.stride=1 8.27e-12
	// R9 Fury launch.const 0.000129
	// true
}
