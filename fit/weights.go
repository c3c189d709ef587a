package fit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
)

// ModelUnified names the linear model of seed 001 in weight tables.
const ModelUnified = "unified"

// Weights is a fitted weight table: one weight in seconds per operation for
// each property, for one device and model, with what is needed to trust it
// later: the property set it was fitted against, the inputs and the fit
// diagnostics.
type Weights struct {
	Device      string
	Model       string
	Version     string  // uniperf version that fitted the weights
	PropertySet string  // PropertySetID of the property list the counts came from
	Inputs      []Input // the measurement tables fitted on
	Properties  []string
	Values      []float64 // Values[i] is the weight of Properties[i], s/op
	Diagnostics Diagnostics
	// Fill, where set, scales every count but the launch terms by its
	// factor before the weights apply (see GridFill): the weights were
	// fitted on counts so scaled, and must be used so.
	Fill *GridFill
	// Banks, where set, is the local-memory bank layout the fit counted
	// local accesses with (the local.<t>.conflict=D properties depend
	// on it): the weights apply to counts of that layout. Nil means
	// weights that do not say (fitted before uniperf recorded it, or
	// typed from a paper), which were counted with package counts'
	// default, 32 banks of 4 bytes.
	Banks *BankLayout
	// Ties, where set, prices each of its keys, a property without a
	// weight of its own, by the weight of the property it maps to: the
	// fit merged their counts into one column (see FilledStrideTies and
	// TieColumns). Weight and Align resolve them.
	Ties map[string]string
	// ZeroMissing makes Predict price a property the weights have no
	// weight for at zero, as a Term marked Unweighted, rather than fail.
	// It is the caller's choice, not part of the table.
	ZeroMissing bool
}

// Input identifies a table a fit read.
type Input struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// Diagnostics describe a fit.
type Diagnostics struct {
	Rows        int  `json:"rows"`       // samples fitted
	Properties  int  `json:"properties"` // properties solved for
	Rank        int  `json:"rank"`       // numerical rank of the column-scaled matrix
	NonNegative bool `json:"nonnegative"`
	Balanced    bool `json:"balanced,omitempty"` // rows weighted to balance the kernel classes
	Robust      bool `json:"robust,omitempty"`   // absolute rather than squared relative errors
	MinNorm     bool `json:"min_norm"`           // rank-deficient; minimum-norm solution
	// Residual is ‖1 − A α‖₂, the square root of the minimised sum of
	// squared relative errors.
	Residual float64 `json:"residual"`
	// Condition is σ_1/σ_n of the column-scaled matrix (+Inf if singular).
	Condition float64        `json:"-"`
	Dropped   []string       `json:"dropped,omitempty"`   // zero in every sample
	Collinear []Collinearity `json:"collinear,omitempty"` // exact and near dependencies
	AtZero    []string       `json:"at_zero,omitempty"`   // held at zero by the non-negative fit
	// Weak lists the free weights that the rows determine weakly: a
	// relative standard error above WeakRelStdErr, or none at all (see
	// Precision). It is recorded so that a prediction can say how much
	// of it rests on such weights without the tables the fit read.
	Weak []string `json:"weak,omitempty"`
	// ClassError is the geometric-mean relative training error per
	// kernel class; TrainingError is its geometric mean over the classes.
	ClassError    map[string]float64 `json:"class_error"`
	TrainingError float64            `json:"training_error"`
	// TieCheck, where set, is the cross-validation that chose whether
	// the weights tie properties (Weights.Ties) or keep them apart.
	TieCheck *TieCheck `json:"tie_check,omitempty"`
	// FillRead lists the grid-fill saturations that were read from the
	// rows of one class each (ReadSaturation) rather than chosen by the
	// training error, and the classes whose rows could not place theirs
	// (SaturationReading.Error), which left them to the training error.
	FillRead []SaturationReading `json:"fill_read,omitempty"`
}

type diagnosticsAlias Diagnostics

// diagnosticsJSON carries the condition number as a number, or as the
// string "inf" for a singular matrix, which JSON numbers cannot express.
type diagnosticsJSON struct {
	*diagnosticsAlias
	Condition json.RawMessage `json:"condition"`
}

// MarshalJSON implements json.Marshaler.
func (d Diagnostics) MarshalJSON() ([]byte, error) {
	cond := json.RawMessage(`"inf"`)
	if !math.IsInf(d.Condition, 0) {
		b, err := json.Marshal(d.Condition)
		if err != nil {
			return nil, err
		}
		cond = b
	}
	return json.Marshal(diagnosticsJSON{(*diagnosticsAlias)(&d), cond})
}

// UnmarshalJSON implements json.Unmarshaler.
func (d *Diagnostics) UnmarshalJSON(b []byte) error {
	aux := diagnosticsJSON{diagnosticsAlias: (*diagnosticsAlias)(d)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	if string(aux.Condition) == `"inf"` {
		d.Condition = math.Inf(1)
		return nil
	}
	if len(aux.Condition) == 0 {
		return fmt.Errorf("diagnostics: no condition number")
	}
	return json.Unmarshal(aux.Condition, &d.Condition)
}

// PropertySetID returns the identifier of an ordered property-name list:
// "sha256:" and the first 16 hex digits of the SHA-256 of the names joined
// by newlines. Weight tables record it so that weights fitted against one
// set of property definitions are not applied to counts of another.
func PropertySetID(names []string) string {
	sum := sha256.Sum256([]byte(strings.Join(names, "\n")))
	return "sha256:" + hex.EncodeToString(sum[:8])
}

// CheckPropertySet returns an error unless the table was fitted against the
// property set id.
func (w *Weights) CheckPropertySet(id string) error {
	if w.PropertySet != id {
		return fmt.Errorf("weights for %s were fitted against property set %s, this uniperf counts property set %s: refit them with this version",
			w.Device, w.PropertySet, id)
	}
	return nil
}

// Weight returns the weight of a property and whether the table has one;
// a tied property (Ties) has its target's.
func (w *Weights) Weight(property string) (float64, bool) {
	if to, ok := w.Ties[property]; ok {
		property = to
	}
	return w.own(property)
}

// own is the weight the table lists for property, ties aside.
func (w *Weights) own(property string) (float64, bool) {
	for i, p := range w.Properties {
		if p == property {
			return w.Values[i], true
		}
	}
	return 0, false
}

// Validate checks the table's invariants: a device and model, unique
// non-empty property names, one finite weight per property.
func (w *Weights) Validate() error {
	if w.Device == "" {
		return fmt.Errorf("weights: no device name")
	}
	if w.Model == "" {
		return fmt.Errorf("weights for %s: no model name", w.Device)
	}
	if len(w.Properties) == 0 {
		return fmt.Errorf("weights for %s: no properties", w.Device)
	}
	if len(w.Values) != len(w.Properties) {
		return fmt.Errorf("weights for %s: %d weights for %d properties", w.Device, len(w.Values), len(w.Properties))
	}
	if w.Fill != nil {
		if err := w.Fill.Validate(); err != nil {
			return fmt.Errorf("weights for %s: %w", w.Device, err)
		}
	}
	if w.Banks != nil {
		if err := w.Banks.Validate(); err != nil {
			return fmt.Errorf("weights for %s: %w", w.Device, err)
		}
	}
	if err := w.checkTies(); err != nil {
		return err
	}
	seen := make(map[string]bool, len(w.Properties))
	for i, p := range w.Properties {
		switch {
		case p == "":
			return fmt.Errorf("weights for %s: property %d has an empty name", w.Device, i+1)
		case seen[p]:
			return fmt.Errorf("weights for %s: property %s listed twice", w.Device, p)
		case math.IsNaN(w.Values[i]) || math.IsInf(w.Values[i], 0):
			return fmt.Errorf("weights for %s: weight of %s is %g", w.Device, p, w.Values[i])
		}
		seen[p] = true
	}
	return nil
}

// Term is one property's contribution to a prediction.
type Term struct {
	Property string  `json:"property"`
	Count    float64 `json:"count"`
	Weight   float64 `json:"weight_s"`
	Seconds  float64 `json:"seconds"`
	Share    float64 `json:"share"` // Seconds / predicted total
	// Unweighted marks a property the weights have no weight for, priced
	// at zero (Weights.ZeroMissing).
	Unweighted bool `json:"unweighted,omitempty"`
}

// Doubt is how much of a prediction rests on weights that its fit held at
// zero (Diagnostics.AtZero) or determined weakly (Diagnostics.Weak). A
// weight held at zero adds nothing to the time, so its share of the time
// says nothing: such terms are measured by their share of the
// prediction's counts, as unweighted ones are. A weak weight's term is
// measured by its share of the predicted time.
type Doubt struct {
	Held      []Term  // terms whose weight the fit held at zero
	HeldShare float64 // their counts over all the prediction's counts
	Weak      []Term  // terms whose weight the rows determine weakly
	WeakShare float64 // their seconds over the predicted time
}

// Doubt returns how much of the prediction with terms (from Predict)
// rests on weights held at zero or weakly determined.
func (w *Weights) Doubt(terms []Term) Doubt {
	var d Doubt
	var counts, seconds float64
	for _, t := range terms {
		counts += t.Count
		seconds += t.Seconds
	}
	for _, t := range terms {
		switch {
		case t.Unweighted:
		case slices.Contains(w.Diagnostics.AtZero, t.Property):
			d.Held = append(d.Held, t)
			d.HeldShare += t.Count / counts
		case slices.Contains(w.Diagnostics.Weak, t.Property):
			d.Weak = append(d.Weak, t)
			if seconds > 0 {
				d.WeakShare += t.Seconds / seconds
			}
		}
	}
	return d
}

// Align returns the weights in the order of properties, for dot products
// with count vectors in that order, a tied property's its target's. Properties the table has no weight for
// get 0 and are listed in missing; a count of such a property must be zero
// for a prediction to be meaningful.
func (w *Weights) Align(properties []string) (aligned []float64, missing []string) {
	index := make(map[string]int, len(w.Properties))
	for i, p := range w.Properties {
		index[p] = i
	}
	aligned = make([]float64, len(properties))
	for i, p := range properties {
		if to, ok := w.Ties[p]; ok {
			p = to
		}
		if k, ok := index[p]; ok {
			aligned[i] = w.Values[k]
		} else {
			missing = append(missing, p)
		}
	}
	return aligned, missing
}

// Predict returns the predicted time Σ α_i p_i in seconds for counts of the
// named properties, and its terms sorted by decreasing |share|. A non-zero
// count of a property without a weight is an error: the fit saw no
// measurement kernel with that operation and cannot price it.
func (w *Weights) Predict(properties []string, counts []float64) (float64, []Term, error) {
	if len(counts) != len(properties) {
		return 0, nil, fmt.Errorf("predict: %d counts for %d properties", len(counts), len(properties))
	}
	aligned, _ := w.Align(properties)
	var terms []Term
	var total float64
	for i, p := range properties {
		c := counts[i]
		if c == 0 {
			continue
		}
		if math.IsNaN(c) || math.IsInf(c, 0) || c < 0 {
			return 0, nil, fmt.Errorf("predict: count of %s is %g", p, c)
		}
		_, ok := w.Weight(p)
		if !ok && !w.ZeroMissing {
			return 0, nil, fmt.Errorf("predict: the weights for %s have no weight for %s (count %g): no measurement kernel exercised it", w.Device, p, c)
		}
		t := Term{Property: p, Count: c, Weight: aligned[i], Seconds: aligned[i] * c, Unweighted: !ok}
		total += t.Seconds
		terms = append(terms, t)
	}
	for i := range terms {
		terms[i].Share = terms[i].Seconds / total
	}
	sort.SliceStable(terms, func(i, j int) bool {
		return math.Abs(terms[i].Seconds) > math.Abs(terms[j].Seconds)
	})
	return total, terms, nil
}

// checkTies checks that every tie of w names a property without a weight
// of its own and a target with one.
func (w *Weights) checkTies() error {
	for _, p := range slices.Sorted(maps.Keys(w.Ties)) {
		if _, ok := w.own(p); ok {
			return fmt.Errorf("weights for %s: %s has a weight of its own and is tied to %s", w.Device, p, w.Ties[p])
		}
		if _, ok := w.own(w.Ties[p]); !ok {
			return fmt.Errorf("weights for %s: %s is tied to %s, which has no weight", w.Device, p, w.Ties[p])
		}
	}
	return nil
}
