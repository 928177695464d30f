package keymap

import "testing"

// FuzzApply: any keys.json content gives bindings or an error, never a
// panic, and accepted overrides never bind one key to two actions.
func FuzzApply(f *testing.F) {
	f.Add([]byte(`{"zoom_in": ["i", "space"], "legend": []}`))
	f.Add([]byte(`{"quit": ["q"], "up": ["q"]}`))
	f.Add([]byte(`{"nope": 1}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		km := Default()
		if err := km.Apply(data); err != nil {
			return
		}
		if err := km.Check(); err != nil {
			t.Fatalf("accepted %q but: %v", data, err)
		}
		_ = km.Markdown()
		for _, f := range km.Focuses() {
			_ = km.Hint(f.Name)
		}
	})
}
