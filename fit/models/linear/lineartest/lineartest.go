// Package lineartest holds what the commands' tests share about the
// linear model: uniperf fit's default weights of a shipped table, fitted
// here in the library, and the comparison of two fits. Its functions fail
// the test instead of returning errors.
package lineartest

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
)

// ShippedDefault returns the shipped table of that name, keyed by it,
// and the weights that linear.DefaultOptions fit to its measurement rows
// with the table's bank layout: uniperf fit's default weights, without
// the command.
func ShippedDefault(t testing.TB, name string) (map[string]*datasets.Table, *fit.Weights) {
	t.Helper()
	data, err := datasets.ShippedBytes(name)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := datasets.Decode(name, data)
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string]*datasets.Table{name: tab}
	banks, err := models.TablesBanks(tables)
	if err != nil {
		t.Fatal(err)
	}
	w, err := linear.CalibrateTables(models.NewCounterWith(models.Library, banks), tables, linear.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return tables, w
}

// SameFit fails t unless got, fitted by what, has want's properties,
// weights, ties and grid fill, to the bit.
func SameFit(t testing.TB, what string, got, want *fit.Weights) {
	t.Helper()
	if !slices.Equal(got.Properties, want.Properties) || !slices.Equal(got.Values, want.Values) ||
		!maps.Equal(got.Ties, want.Ties) || !reflect.DeepEqual(got.Fill, want.Fill) {
		t.Errorf("%s fitted\n%v %v\n%v %+v\nwant linear.DefaultOptions'\n%v %v\n%v %+v", what,
			got.Properties, got.Values, got.Ties, got.Fill, want.Properties, want.Values, want.Ties, want.Fill)
	}
}
