package bttest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// Tool21 returns the path of babeltrace2 2.1 (the shared directory's
// tools/babeltrace2-2.1, the only peer that reads CTF 2), or skips the
// test saying how to provide it.
func Tool21(t testing.TB) string {
	t.Helper()
	d := coretest.SharedDir()
	if d == "" {
		t.Skipf("babeltrace2 2.1 not found: put the shared directory beside the checkout or set %s", coretest.SharedEnv)
	}
	p := filepath.Join(d, "tools", "babeltrace2-2.1")
	if st, err := os.Stat(p); err != nil || st.IsDir() {
		t.Skipf("babeltrace2 2.1 not found at shared/tools/babeltrace2-2.1")
	}
	return p
}

// Run21 is [Run] with babeltrace2 2.1 (CTF 2 and CTF 1.8), run with TZ=UTC.
func Run21(t testing.TB, trace string) (stdout, stderr string, code int) {
	t.Helper()
	return run(t, Tool21(t), []string{"--clock-seconds", "--no-delta", trace}, "TZ=UTC")
}
