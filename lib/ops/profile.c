// SPDX-License-Identifier: Apache-2.0
/*
 * The op profiler: one record per op call, written as Chrome trace
 * events (prefix.json: one complete event "X" per call on the host
 * track, one per call on the device track, args with the details) and as
 * CSV (prefix.csv: one row per call).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops_internal.h"

int tt_ops_profile_start(tt_ops_ctx *ctx, const char *prefix)
{
	char *copy;
	int ret;

	TT_CHECK_ARG(ctx);
	TT_CHECK_ARG(prefix);
	if (!*prefix)
		return tt_error(-EINVAL, "tt_ops_profile_start: prefix is empty");
	ret = tt_ops_profile_stop(ctx);
	if (ret)
		return ret;
	copy = strdup(prefix);
	if (!copy)
		return tt_error(-ENOMEM, "tt_ops_profile_start: out of memory");
	ctx->prof_prefix = copy;
	ctx->prof_t0 = tt_ops_now_us();
	return 0;
}

void tt_ops_profile_record(tt_ops_ctx *ctx, const struct tt_ops_rec *rec)
{
	struct tt_ops_rec *r;

	if (!ctx->prof_prefix)
		return;
	if (ctx->nrecs == ctx->caprecs) {
		size_t cap = ctx->caprecs ? 2 * ctx->caprecs : 64;

		r = realloc(ctx->recs, cap * sizeof(*r));
		if (!r)
			return; /* the call is lost, not the op */
		ctx->recs = r;
		ctx->caprecs = cap;
	}
	r = &ctx->recs[ctx->nrecs++];
	*r = *rec;
	r->start_us -= ctx->prof_t0;
}

/* s as a JSON string body (the names and configs are ASCII we made; only
 * quotes and backslashes can occur). */
static void json_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* s as a CSV field: quoted, quotes doubled. */
static void csv_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static int write_json(const tt_ops_ctx *ctx, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return tt_error(-errno, "tt_ops_profile: cannot write %s: %s",
				path, strerror(errno));
	fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,"
		   "\"args\":{\"name\":\"tt ops\"}},\n");
	fprintf(f, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,"
		   "\"args\":{\"name\":\"host enqueue\"}},\n");
	fprintf(f, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":2,"
		   "\"args\":{\"name\":\"device (enqueue to finish)\"}}");
	for (size_t i = 0; i < ctx->nrecs; i++) {
		const struct tt_ops_rec *r = &ctx->recs[i];

		for (int track = 1; track <= 2; track++) {
			double ts = track == 1 ? r->start_us :
						 r->start_us + r->enqueue_us;
			double dur = track == 1 ? r->enqueue_us : r->finish_us;

			fprintf(f, ",\n{\"name\":\"");
			json_str(f, r->name);
			fprintf(f, "\",\"cat\":\"op\",\"ph\":\"X\",\"pid\":1,"
				   "\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,"
				   "\"args\":{\"call\":%zu,\"shapes\":\"",
				track, ts, dur, i);
			json_str(f, r->shapes);
			fprintf(f, "\",\"config\":\"");
			json_str(f, r->config);
			fprintf(f, "\",\"cache_hit\":%s,\"cores\":%u,"
				   "\"tiles\":%llu}}",
				r->hit ? "true" : "false", r->cores,
				(unsigned long long)r->tiles);
		}
	}
	fprintf(f, "\n]}\n");
	if (fclose(f))
		return tt_error(-EIO, "tt_ops_profile: cannot write %s", path);
	return 0;
}

static int write_csv(const tt_ops_ctx *ctx, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return tt_error(-errno, "tt_ops_profile: cannot write %s: %s",
				path, strerror(errno));
	fprintf(f, "call,op,shapes,config,cache_hit,cores,tiles,start_us,"
		   "host_enqueue_us,device_us\n");
	for (size_t i = 0; i < ctx->nrecs; i++) {
		const struct tt_ops_rec *r = &ctx->recs[i];

		fprintf(f, "%zu,", i);
		csv_str(f, r->name);
		fputc(',', f);
		csv_str(f, r->shapes);
		fputc(',', f);
		csv_str(f, r->config);
		fprintf(f, ",%d,%u,%llu,%.3f,%.3f,%.3f\n", r->hit, r->cores,
			(unsigned long long)r->tiles, r->start_us,
			r->enqueue_us, r->finish_us);
	}
	if (fclose(f))
		return tt_error(-EIO, "tt_ops_profile: cannot write %s", path);
	return 0;
}

int tt_ops_profile_stop(tt_ops_ctx *ctx)
{
	size_t len;
	char *path;
	int ret;

	TT_CHECK_ARG(ctx);
	if (!ctx->prof_prefix)
		return 0;
	len = strlen(ctx->prof_prefix) + 6;
	path = malloc(len);
	if (!path)
		return tt_error(-ENOMEM, "tt_ops_profile_stop: out of memory");
	snprintf(path, len, "%s.json", ctx->prof_prefix);
	ret = write_json(ctx, path);
	snprintf(path, len, "%s.csv", ctx->prof_prefix);
	if (!ret)
		ret = write_csv(ctx, path);
	free(path);
	free(ctx->prof_prefix);
	ctx->prof_prefix = NULL;
	free(ctx->recs);
	ctx->recs = NULL;
	ctx->nrecs = ctx->caprecs = 0;
	return ret;
}
