package config

import "reflect"

// overlay applies a local override onto the main config, typed and key by key: a key the local
// file sets replaces the main one, stop_hook merges key by key and gates merge by name, field by
// field. Positions move with the values, so later errors point at the file that set them.
func overlay(dst, src *rawFile) {
	overlayStruct(reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem())
}

func overlayStruct(dst, src reflect.Value) {
	dstSet := dst.Addr().Interface().(positioned).self()
	srcSet := src.Addr().Interface().(positioned).self()
	for _, f := range fieldsOf(dst.Type()) {
		if !srcSet.has(f.name) {
			continue
		}
		from, to := src.Field(f.index), dst.Field(f.index)
		switch {
		case from.Type() == reflect.TypeFor[gateMap]():
			mergeGates(to.Addr().Interface().(*gateMap), from.Interface().(gateMap))
		case from.Type() == reflect.TypeFor[setupMap]():
			mergeSetup(to.Addr().Interface().(*setupMap), from.Interface().(setupMap))
		case from.Kind() == reflect.Pointer && from.Type().Elem().Kind() == reflect.Struct:
			if from.IsNil() {
				continue
			}
			if to.IsNil() {
				to.Set(from)
			} else {
				overlayStruct(to.Elem(), from.Elem())
			}
		default:
			to.Set(from)
		}
		dstSet.set(f.name, srcSet.at[f.name])
	}
}

func mergeGates(dst *gateMap, src gateMap) {
	for _, g := range src {
		base := dst.find(g.Name)
		if base == nil {
			*dst = append(*dst, g)
			continue
		}
		// A command set locally replaces the main one whichever form each file uses; only a
		// local file that sets both forms is a "both set" mistake.
		if g.Gate.has("run") != g.Gate.has("argv") {
			base.Gate.Run, base.Gate.Argv = nil, nil
			base.Gate.clear("run")
			base.Gate.clear("argv")
			// An argv runs without a shell: the main file's shell has nothing left to run.
			if g.Gate.has("argv") && !g.Gate.has("shell") {
				base.Gate.Shell = nil
				base.Gate.clear("shell")
			}
			// The main file's hint was written for the command being replaced: advice about
			// another command misleads more than no advice.
			if !g.Gate.has("hint") {
				base.Gate.Hint = nil
				base.Gate.clear("hint")
			}
		}
		overlayStruct(reflect.ValueOf(base.Gate).Elem(), reflect.ValueOf(g.Gate).Elem())
	}
}
