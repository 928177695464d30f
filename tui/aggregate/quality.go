package aggregate

import "math"

// ent is x*log2(x), with 0*log 0 = 0.
func ent(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return x * math.Log2(x)
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

func (a tradeoff) better(b tradeoff) bool {
	if a.pic != b.pic {
		return a.pic > b.pic
	}
	if a.gain != b.gain {
		return a.gain > b.gain
	}
	return a.loss < b.loss
}
