package keymap

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// ConfigPath returns where overrides are read from:
// $XDG_CONFIG_HOME/tracetui/keys.json (else ~/.config/tracetui/keys.json).
func ConfigPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("key bindings: %w", err)
	}
	return filepath.Join(dir, "tracetui", "keys.json"), nil
}

// Load returns the default bindings with the overrides of the JSON file at
// path applied. A missing file is not an error (the defaults are returned).
//
// The file is one JSON object mapping action names (see [KeyMap.Actions]:
// "zoom_in", "quit", ...) to the list of keys that trigger them, in Bubble
// Tea's key names ("w", "+", "ctrl+c", "pgdown", "space", "tab", "enter",
// "left"...). An empty list disables the action. Actions not named keep
// their default keys:
//
//	{"zoom_in": ["w", "+", "i"], "zoom_out": ["s", "-", "o"], "legend": []}
//
// Unknown actions, non-string keys and a key bound to two actions are
// errors that name the file and the action, so a typo never silently
// leaves a key unbound.
func Load(path string) (KeyMap, error) {
	km := Default()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return km, nil
	}
	if err != nil {
		return km, fmt.Errorf("key bindings: %w", err)
	}
	if err := km.Apply(data); err != nil {
		return Default(), fmt.Errorf("key bindings %s: %w (fix or remove the file)", path, err)
	}
	return km, nil
}

// LoadDefault is [Load] of [ConfigPath].
func LoadDefault() (KeyMap, error) {
	p, err := ConfigPath()
	if err != nil {
		return Default(), err
	}
	return Load(p)
}

// Apply applies the JSON overrides in data (the shape [Load] documents).
// On error km is left partly changed: callers start again from Default.
func (k *KeyMap) Apply(data []byte) error {
	var raw map[string][]string
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("not a JSON object of action -> list of keys: %w", err)
	}
	actions := k.Actions()
	byName := map[string]*key.Binding{}
	for _, a := range actions {
		byName[a.Name] = a.Binding
	}
	names := make([]string, 0, len(raw))
	for n := range raw {
		names = append(names, n)
	}
	slices.Sort(names) // deterministic error messages
	for _, n := range names {
		b, ok := byName[n]
		if !ok {
			return fmt.Errorf("unknown action %q (known: %s)", n, strings.Join(actionNames(actions), ", "))
		}
		keys := make([]string, 0, len(raw[n]))
		for _, s := range raw[n] {
			if s == "" {
				return fmt.Errorf("action %q: empty key name", n)
			}
			if s == "space" {
				s = " "
			}
			keys = append(keys, s)
		}
		desc := b.Help().Desc
		if len(keys) == 0 {
			*b = key.NewBinding(key.WithHelp("", desc), key.WithDisabled())
			continue
		}
		*b = key.NewBinding(key.WithKeys(keys...), key.WithHelp(HelpKeys(keys), desc))
	}
	return k.Check()
}

// Check reports a key bound to two actions.
func (k *KeyMap) Check() error {
	owner := map[string]string{}
	for _, a := range k.Actions() {
		if !a.Binding.Enabled() {
			continue
		}
		for _, s := range a.Binding.Keys() {
			if prev, dup := owner[s]; dup {
				return fmt.Errorf("key %q is bound to both %q and %q", displayKey(s), prev, a.Name)
			}
			owner[s] = a.Name
		}
	}
	return nil
}

func actionNames(as []Action) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name
	}
	return out
}

// HelpKeys formats keys for the help line: "k/↑".
func HelpKeys(keys []string) string {
	out := make([]string, len(keys))
	for i, s := range keys {
		out[i] = displayKey(s)
	}
	return strings.Join(out, "/")
}

func displayKey(s string) string {
	switch s {
	case " ":
		return "space"
	case "up":
		return "↑"
	case "down":
		return "↓"
	case "left":
		return "←"
	case "right":
		return "→"
	}
	return s
}
