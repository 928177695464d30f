package aggregate

import "math"

// ent is x*log2(x), with 0*log 0 = 0.
func ent(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return x * log2(x)
}

// Quality is a part's (or a partition's, by addition) complexity
// reduction and information loss.
type Quality struct {
	Gain, Loss float64
}

// tradeoff is the quantity the best cuts maximise, with the thesis's tie
// order: greater pIC, then greater gain, then smaller loss.
type tradeoff struct {
	pic, gain, loss float64
}

func newTradeoff(p float64, q Quality) tradeoff {
	return tradeoff{pic: p*q.Gain - (1-p)*q.Loss, gain: q.Gain, loss: q.Loss}
}

func (a tradeoff) add(b tradeoff) tradeoff {
	return tradeoff{a.pic + b.pic, a.gain + b.gain, a.loss + b.loss}
}

// better compares two trade-offs. Values closer than rounding noise
// (1e-12 of the gains and losses they come from) are ties, so that
// partitions equal in exact arithmetic (a split whose parts share no
// amount gains exactly what the whole gains) fall to the tie order
// instead of to the last bit of a sum.
func (a tradeoff) better(b tradeoff) bool {
	const eps = 1e-12
	mag := math.Abs(a.gain) + math.Abs(a.loss) + math.Abs(b.gain) + math.Abs(b.loss)
	if d := a.pic - b.pic; math.Abs(d) > eps*mag {
		return d > 0
	}
	if d := a.gain - b.gain; math.Abs(d) > eps*(math.Abs(a.gain)+math.Abs(b.gain)) {
		return d > 0
	}
	return b.loss-a.loss > eps*(math.Abs(a.loss)+math.Abs(b.loss))
}

// betterWithin is better with a fixed tolerance tol on every value: the
// best-cut loops compare all the candidates of one area against one bound
// (the candidates' gains and losses never exceed the whole area's:
// merging only adds gain and loss).
func (a tradeoff) betterWithin(b tradeoff, tol float64) bool {
	if d := a.pic - b.pic; d > tol || d < -tol {
		return d > 0
	}
	if d := a.gain - b.gain; d > tol || d < -tol {
		return d > 0
	}
	return b.loss-a.loss > tol
}

// tolerance is the rounding bound of an area's trade-offs.
func tolerance(q Quality) float64 { return 2e-12 * (math.Abs(q.Gain) + math.Abs(q.Loss)) }

// qualityOf returns the qualities of a part from e (the sum over types of
// ent of the part's amount), info (the sum of ent over its cells), its
// total amount and its number of cells. Gain and loss are differences of
// large nearly equal terms: a part whose cells hold equal amounts loses
// nothing, but the subtraction leaves ~1e-14 of noise that would break the
// exact ties the best cuts rely on (merging equal cells at p = 0). Values
// within 1e-12 of the terms' magnitude are therefore exactly zero.
func qualityOf(e, info, total, size float64) Quality {
	if total == 0 {
		return Quality{}
	}
	g := e - info
	scale := math.Abs(e) + math.Abs(info)
	if math.Abs(g) <= 1e-12*scale {
		g = 0
	}
	spread := total * math.Log2(size)
	l := spread - g
	if math.Abs(l) <= 1e-12*(scale+spread) {
		l = 0
	}
	return Quality{Gain: g, Loss: l}
}
