// SPDX-License-Identifier: Apache-2.0
/* counterguard's C ABI: the in-process profiler, expectations, baselines and reports of `counterguard run`,
 * for languages that call C (the Python package `counterguard` calls it through ctypes). A thin layer over
 * the C++ areas: in_process (profiling), model and checker (expectations), baselines, reporters.
 *
 * Conventions
 *   - Every function that can fail returns a counterguard_status; COUNTERGUARD_OK (0) is success. On failure
 *     counterguard_last_error() says what went wrong (and what would be valid), in this thread, until the
 *     next call; counterguard_last_error_problem() names the reason profiling is unavailable.
 *   - Structured data crosses as UTF-8 JSON text. A results document is the results JSON of `counterguard
 *     run --json` (docs/results-schema.md): {"schema_version", "metadata", "cases": [...]}.
 *   - A char* returned through an out-parameter belongs to the caller: release it with counterguard_free().
 *     A const char* returned directly belongs to the library.
 *   - One profiled block at a time per process (CUPTI allows one profiler per process).
 *
 *   counterguard_profile_begin("[\"shared_load_bank_conflicts\"]", NULL);
 *   launch_kernels();
 *   counterguard_measurement* m = NULL;
 *   if (counterguard_profile_end(&m) == COUNTERGUARD_OK) {
 *     char* json = NULL;
 *     counterguard_measurement_json(m, NULL, &json);   // the launches' values, totals and classes
 *     counterguard_free(json);
 *     counterguard_measurement_free(m);
 *   }
 */
#ifndef COUNTERGUARD_CAPI_COUNTERGUARD_C_H
#define COUNTERGUARD_CAPI_COUNTERGUARD_C_H

#ifdef __cplusplus
extern "C" {
#endif

/* Every function is exported from libcounterguard_capi.so, whose other symbols stay private. */
#if defined(__GNUC__)
#define COUNTERGUARD_C_API __attribute__((visibility("default")))
#else
#define COUNTERGUARD_C_API
#endif

/* The version of this interface; it changes when a function's meaning or signature does. */
#define COUNTERGUARD_C_API_VERSION 1

typedef enum counterguard_status {
  COUNTERGUARD_OK = 0,
  /* Invalid input: an unknown metric (with the closest names), malformed JSON or expectation, a formula
   * that uses an unknown parameter, a baseline file of another GPU key, functions called out of order. */
  COUNTERGUARD_ERROR_INPUT = 1,
  /* Profiling is not possible in this process: no GPU or driver, no permission to read the counters,
   * another profiler (ncu, nsys, counterguard exec) in the process, an unsupported GPU, or the GPU held by
   * another counterguard past the wait. counterguard_last_error_problem() names which. */
  COUNTERGUARD_ERROR_UNAVAILABLE = 2,
  /* A file or directory could not be read, written or created. */
  COUNTERGUARD_ERROR_ENVIRONMENT = 3,
  /* Profiling began and failed: more launches than max_launches, a CUDA or CUPTI error in the work. */
  COUNTERGUARD_ERROR_PROFILING = 4,
  /* A bug in counterguard. */
  COUNTERGUARD_ERROR_INTERNAL = 5
} counterguard_status;

/* What one profiled block measured (opaque). */
typedef struct counterguard_measurement counterguard_measurement;

COUNTERGUARD_C_API int counterguard_api_version(void);
/* counterguard's version, "0.2.0". */
COUNTERGUARD_C_API const char* counterguard_version(void);
/* The last failure's message in this thread ("" after a success). */
COUNTERGUARD_C_API const char* counterguard_last_error(void);
/* After COUNTERGUARD_ERROR_UNAVAILABLE: "no_gpu", "insufficient_privileges", "profiler_busy",
 * "under_external_profiler", "unsupported_device", "gpu_wait_expired" or "under_exec" (counterguard exec
 * profiles this process; run the work unprofiled). "" otherwise. */
COUNTERGUARD_C_API const char* counterguard_last_error_problem(void);
/* Releases text this library returned through an out-parameter; NULL is ignored. */
COUNTERGUARD_C_API void counterguard_free(char* text);

/* COUNTERGUARD_OK when this process can profile, else COUNTERGUARD_ERROR_UNAVAILABLE with the reason.
 * options_json (NULL or "{}" for defaults): {"device": int, "max_launches": int, "wait_for_gpu_seconds": n};
 * the first call of the process opens the profiler on its device (-1 or absent: $COUNTERGUARD_DEVICE, else
 * 0). */
COUNTERGUARD_C_API int counterguard_profiling_unavailable(const char* options_json);

/* Profiles the kernels every thread launches (CUDA runtime or driver: Triton, CuPy, Numba, PyTorch) until
 * counterguard_profile_end. metrics_json: a JSON array of aliases (docs/metrics.md) or raw CUPTI names. */
COUNTERGUARD_C_API int counterguard_profile_begin(const char* metrics_json, const char* options_json);
/* Synchronises the device and measures the block; *measurement is released with
 * counterguard_measurement_free. */
COUNTERGUARD_C_API int counterguard_profile_end(counterguard_measurement** measurement);
/* Ends an open block keeping nothing (the work raised); does nothing when none is open. */
COUNTERGUARD_C_API void counterguard_profile_abandon(void);
/* A results document with one case, "counterguard::profile": per-launch values ("kernels"), totals with
 * their classes ("totals": the same totals over several launches as a case of `counterguard run`) and the
 * device's metadata. kernel: NULL for every launch, or a kernel's demangled name or last "::" part for
 * its launches only (totalled the same way). */
COUNTERGUARD_C_API int counterguard_measurement_json(const counterguard_measurement* measurement,
                                                     const char* kernel, char** results_json);
COUNTERGUARD_C_API void counterguard_measurement_free(counterguard_measurement* measurement);
/* Measures a block recorded earlier, offline (no GPU): case `case_index` of a counter-data archive
 * (`counterguard run --save-counter-data DIR` writes DIR/manifest.json and one image per case), the same
 * measurement as counterguard_profile_end gives for those launches and counters. metadata_json (NULL: none)
 * is the results metadata the measurement reports (the recording's device). */
COUNTERGUARD_C_API int counterguard_measure_recording(const char* archive_dir, int case_index,
                                                      const char* metrics_json, const char* metadata_json,
                                                      counterguard_measurement** measurement);
/* Saves what a block measured (its counter data, launches and the compiler resources of the kernels it
 * launched) as a counter-data archive of one case named `name` in archive_dir (created if needed; files there
 * are replaced), which counterguard_measure_recording measures again on any machine exactly as the block was
 * measured. metadata_json (NULL: none) is kept in the archive's manifest. A measurement that holds no counter
 * data is COUNTERGUARD_ERROR_INPUT. */
COUNTERGUARD_C_API int counterguard_measurement_save(const counterguard_measurement* measurement,
                                                     const char* archive_dir, const char* name,
                                                     const char* metadata_json);
/* The profiled device as results metadata: gpu_name, chip, sm_count, versions and gpu_key. */
COUNTERGUARD_C_API int counterguard_device_metadata(char** metadata_json);

/* The metric catalog: [{"name", "class", "direction", "source", "unit", "description", "summable",
 * "raw_inputs"}...] for every alias. */
COUNTERGUARD_C_API int counterguard_metric_catalog(char** catalog_json);
/* One alias or raw CUPTI name, as the catalog resolves it (the same object); an unknown name is
 * COUNTERGUARD_ERROR_INPUT naming the closest aliases. */
COUNTERGUARD_C_API int counterguard_resolve_metric(const char* name, char** metric_json);

/* Checks expectations against every case of a results document that was not skipped, appending the checks
 * (as `run` does). request_json: {"expect": {...} or "<YAML text>", "parameters": {"n": 1024, ...},
 * "source": {"file": "...", "line": n}}: "expect" in the forms of a suite's `expect:` block (docs/schema.md:
 * a number or formula, {"equals"|"min"|"max": v}, {"between": [a, b]}, "tolerance", "class", "kernel"),
 * formulas evaluated with the numeric parameters; "source" is where messages say the expectation is. */
COUNTERGUARD_C_API int counterguard_check_expectations(const char* results_json, const char* request_json,
                                                       char** results_out_json);
/* Compares every case with its suite's baseline file <baseline_dir>/<gpu_key>/<suite>.yaml, the files and
 * the noise model of `counterguard run` (docs/baselines.md); a missing file means every metric is new.
 * options_json: {"strict": bool, "false_alarm_rate": p}. */
COUNTERGUARD_C_API int counterguard_compare_baselines(const char* results_json, const char* baseline_dir,
                                                      const char* options_json, char** results_out_json);
/* Settles every case's status from its checks (as `run` does) and gives the exit status `run` would
 * (0 passed, 1 a failing check). options_json: {"strict": bool}. */
COUNTERGUARD_C_API int counterguard_settle(const char* results_json, const char* options_json,
                                           char** results_out_json, int* exit_status);
/* Records the measured cases into the baseline files of their suites (as `counterguard baseline update`
 * does with one repetition); summary_json: {"written": [paths], "not_recorded": [...], "summary": Markdown}.
 */
COUNTERGUARD_C_API int counterguard_update_baselines(const char* results_json, const char* baseline_dir,
                                                     char** summary_json);
/* Writes the reports of `run`: options_json {"json": path, "markdown": path, "html": path, "junit": path,
 * "strict": bool, "markdown_limit": characters}; absent or empty paths are not written. */
COUNTERGUARD_C_API int counterguard_write_reports(const char* results_json, const char* options_json);
/* The console table of `run` as text. options_json: {"strict": bool, "show_passing": bool}. */
COUNTERGUARD_C_API int counterguard_render_console(const char* results_json, const char* options_json,
                                                   char** text);

#ifdef __cplusplus
}
#endif

#endif /* COUNTERGUARD_CAPI_COUNTERGUARD_C_H */
