package diff

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
)

// BenchDiffEnv names two indexed traces "BASE:NEW" for BenchmarkCompute
// (their indexes at BASE.tti and NEW.tti); without it the benchmark
// compares the generated 63 000-thread trace (1.4 M events) with its
// 2-CPU variant, their indexes kept in gentest.Dir.
const BenchDiffEnv = "TRACETUI_DIFF_BENCH"

// BenchmarkCompute is `tracetui diff BASE NEW` from the indexes (issue
// 34's target: 1 s for two 1.4 M-event captures).
func BenchmarkCompute(b *testing.B) {
	var paths [2]string
	if env := os.Getenv(BenchDiffEnv); env != "" {
		a, c, _ := strings.Cut(env, ":")
		paths = [2]string{a, c}
	} else {
		paths = [2]string{gentest.Trace(b, 63_000), gentest.TraceCPUs(b, 63_000, 2)}
	}
	var sides [2]Side
	for i, p := range paths {
		tr, err := trace.Open(context.Background(), p, index.Options{IndexPath: p + ".tti"})
		if err != nil {
			b.Fatal(err)
		}
		defer tr.Close()
		sides[i] = Side{Name: filepath.Base(p), History: tr.History()}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Compute(context.Background(), sides[0], sides[1], Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
