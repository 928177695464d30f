package ctf

import (
	"os"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// TestMain removes the binary the tests and benchmarks build once.
func TestMain(m *testing.M) { os.Exit(coretest.Main(m)) }
