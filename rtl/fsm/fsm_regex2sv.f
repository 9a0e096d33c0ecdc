// Modules scripts/regex2sv.py generates for the fsm_regex2sv test (TEST_REGEXES),
// and the wrapper that runs them side by side. They are written into build/gen/
// by the test's sources() (scripts.regex2sv.generated_sim_test) before any build.
../../build/gen/regex2sv/r2s_brief.sv
../../build/gen/regex2sv/r2s_number.sv
../../build/gen/regex2sv/r2s_enum.sv
../../build/gen/regex2sv/r2s_email.sv
../../build/gen/regex2sv/r2s_utf8.sv
../../build/gen/regex2sv/r2s_classes.sv
../../build/gen/regex2sv/r2s_list.sv
../../build/gen/regex2sv/fsm_regex2sv_top.sv
