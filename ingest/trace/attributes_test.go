package trace

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/ingest/index"
)

// TestRowsCarryUserAttributes: a CTF 2 trace's user attributes (its
// trace class's and each event class's, as LTTng writes its context under
// "lttng.org,2009") reach the event table's rows, for the details pane.
func TestRowsCarryUserAttributes(t *testing.T) {
	path := filepath.Join("..", "ctf", "testdata", "ctf2", "user-attributes")
	tr, err := Open(context.Background(), path, index.Options{IndexPath: filepath.Join(t.TempDir(), "index")})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	rows, err := tr.Events().Rows(context.Background(), []int64{0})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	if !strings.Contains(r.ClassAttributes, `"log-level":"warning"`) || !strings.Contains(r.TraceAttributes, `"lttng.org,2009"`) {
		t.Errorf("row attributes: class %q, trace %q", r.ClassAttributes, r.TraceAttributes)
	}
}
