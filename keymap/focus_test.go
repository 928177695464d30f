package keymap

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// TestEveryActionHasAFocus: the help lists keys by focus only, so a
// binding in no focus would be missing from it.
func TestEveryActionHasAFocus(t *testing.T) {
	km := Default()
	listed := map[*key.Binding]bool{}
	for _, f := range km.Focuses() {
		for _, u := range f.Uses {
			if u.Binding == nil && (u.Key == "" || u.Desc == "") {
				t.Errorf("%s: a fixed key needs a key and a description: %+v", f.Name, u)
			}
			listed[u.Binding] = true
		}
	}
	for _, a := range km.Actions() {
		if !listed[a.Binding] {
			t.Errorf("action %s is in no focus of the help", a.Name)
		}
	}
}

// TestFocusesPointAtTheKeyMap: every use is a binding of the map itself
// (not a copy), so overrides show in the help and the hints.
func TestFocusesPointAtTheKeyMap(t *testing.T) {
	km := Default()
	if err := km.Apply([]byte(`{"zoom_in": ["I"], "legend": []}`)); err != nil {
		t.Fatal(err)
	}
	own := map[*key.Binding]bool{}
	for _, a := range km.Actions() {
		own[a.Binding] = true
	}
	for _, f := range km.Focuses() {
		for _, u := range f.Uses {
			if u.Binding != nil && !own[u.Binding] {
				t.Errorf("%s: %q is not one of the map's bindings", f.Name, u.Description())
			}
		}
		for _, u := range km.Hint(f.Name) {
			if strings.Contains(u.Keys(), "w/+") || u.Keys() == "c" {
				t.Errorf("%s: hint %q ignores the overrides", f.Name, u.Keys())
			}
		}
	}
	if h := km.Hint(FocusOverview); len(h) == 0 || h[0].Keys() != "I" || h[0].HintText() != "finer p" {
		t.Errorf("overview hint starts with %+v, want I finer p", h)
	}
}

// TestNoKeyTwiceInAFocus: within a focus and its base, one key does one
// thing, or the help would say two things of it.
func TestNoKeyTwiceInAFocus(t *testing.T) {
	km := Default()
	for _, f := range km.Focuses() {
		uses := f.Uses
		if f.Base != "" {
			base := km.FocusNamed(f.Base)
			if base.Uses == nil {
				t.Fatalf("%s: unknown base %q", f.Name, f.Base)
			}
			uses = append(append([]Use(nil), uses...), base.Uses...)
		}
		seen := map[string]string{}
		for _, u := range uses {
			keys := []string{u.Key}
			if u.Binding != nil {
				keys = u.Binding.Keys()
			}
			for _, k := range keys {
				if prev, ok := seen[k]; ok {
					t.Errorf("%s: key %q both %q and %q", f.Name, k, prev, u.Description())
				}
				seen[k] = u.Description()
			}
		}
	}
}

// TestHintsJoinSharedPlaces: uses sharing a place in the hint are one
// item with both keys and the first one's words; places come in order.
func TestHintsJoinSharedPlaces(t *testing.T) {
	km := Default()
	var items []string
	for _, u := range km.Hint(FocusOverview) {
		items = append(items, u.Keys()+" "+u.HintText())
	}
	got := strings.Join(items, " · ")
	want := "w/+ finer p · s/- coarser p · h/← l/→ parts · k/↑ j/↓ rows · enter zoom to part · c legend · esc close"
	if got != want {
		t.Errorf("overview hint\n got %q\nwant %q", got, want)
	}
	gantt := km.Hint(FocusGantt)
	if len(gantt) < 3 || gantt[0].Binding != &km.Help || gantt[1].Binding != &km.Quit {
		t.Errorf("the Gantt's hint must start with help and quit (from its base): %+v", gantt)
	}
	if len(km.Hint("no such focus")) != 0 {
		t.Error("an unknown focus has a hint")
	}
}
