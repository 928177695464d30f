package aggregate

import "fmt"

// Model is a microscopic model: a non-negative amount mu(s, t, j) for each
// resource s, time slice t and type j (for the state-time metric: the time
// resource s spent in state j during slice t).
type Model struct {
	S, T, J int
	mu      []float64 // (s*T + t)*J + j
}

// NewModel returns a zero model of the given size.
func NewModel(s, t, j int) (*Model, error) {
	if s < 1 || t < 1 || j < 1 {
		return nil, fmt.Errorf("aggregate: model of %d resources x %d slices x %d types: every size must be >= 1", s, t, j)
	}
	return &Model{S: s, T: t, J: j, mu: make([]float64, s*t*j)}, nil
}

// At returns mu(s, t, j).
func (m *Model) At(s, t, j int) float64 { return m.mu[(s*m.T+t)*m.J+j] }

// Add adds v (>= 0) to mu(s, t, j).
func (m *Model) Add(s, t, j int, v float64) { m.mu[(s*m.T+t)*m.J+j] += v }

// row returns the T*J amounts of resource s, slice-major.
func (m *Model) row(s int) []float64 { return m.mu[s*m.T*m.J : (s+1)*m.T*m.J] }
