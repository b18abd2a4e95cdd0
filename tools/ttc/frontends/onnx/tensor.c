// SPDX-License-Identifier: Apache-2.0
/*
 * ONNX tensors: data types, TensorProto values (raw_data, the typed
 * fields, external data files) as host tensors, and files.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/ttc/ir/internal.h"

#include "internal.h"

enum {
	DT_FLOAT = 1, DT_UINT8, DT_INT8, DT_UINT16, DT_INT16, DT_INT32,
	DT_INT64, DT_STRING, DT_BOOL, DT_FLOAT16, DT_DOUBLE, DT_UINT32,
	DT_UINT64, DT_COMPLEX64, DT_COMPLEX128, DT_BFLOAT16,
};

static const char *const dtype_names[] = {
	"UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32",
	"INT64", "STRING", "BOOL", "FLOAT16", "DOUBLE", "UINT32", "UINT64",
	"COMPLEX64", "COMPLEX128", "BFLOAT16",
};

const char *onx_dtype_name(int32_t dt)
{
	return dt >= 0 && dt <= DT_BFLOAT16 ? dtype_names[dt] : "unknown";
}

const ttc_type *onx_elem_type(ttc_ctx *ctx, int32_t dt)
{
	switch (dt) {
	case DT_FLOAT: return ttc_float_type(ctx, TTC_F32);
	case DT_FLOAT16: return ttc_float_type(ctx, TTC_F16);
	case DT_BFLOAT16: return ttc_float_type(ctx, TTC_BF16);
	case DT_DOUBLE: return ttc_float_type(ctx, TTC_F64);
	case DT_BOOL: return ttc_int_type(ctx, 1, TTC_SIGNLESS);
	case DT_INT8: return ttc_int_type(ctx, 8, TTC_SIGNLESS);
	case DT_INT16: return ttc_int_type(ctx, 16, TTC_SIGNLESS);
	case DT_INT32: return ttc_int_type(ctx, 32, TTC_SIGNLESS);
	case DT_INT64: return ttc_int_type(ctx, 64, TTC_SIGNLESS);
	case DT_UINT8: return ttc_int_type(ctx, 8, TTC_UNSIGNED);
	case DT_UINT16: return ttc_int_type(ctx, 16, TTC_UNSIGNED);
	case DT_UINT32: return ttc_int_type(ctx, 32, TTC_UNSIGNED);
	case DT_UINT64: return ttc_int_type(ctx, 64, TTC_UNSIGNED);
	default: return NULL;
	}
}

int onx_read_file(ttc_ctx *ctx, const char *path, void **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long size;

	*data = NULL;
	*len = 0;
	if (!f) {
		int err = errno;

		ttc_diag_addf(ctx, "%s: %s", path, strerror(err));
		return -err;
	}
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		ttc_diag_addf(ctx, "%s: cannot find its size", path);
		return -EIO;
	}
	*data = malloc(size ? (size_t)size : 1);
	if (!*data || fread(*data, 1, (size_t)size, f) != (size_t)size) {
		fclose(f);
		free(*data);
		*data = NULL;
		ttc_diag_addf(ctx, "%s: cannot read it", path);
		return -EIO;
	}
	fclose(f);
	*len = (size_t)size;
	return 0;
}

/* ---- external data ---- */

static const char *external_key(const Onnx__TensorProto *t, const char *key)
{
	for (size_t i = 0; i < t->n_external_data; i++)
		if (t->external_data[i]->key &&
		    !strcmp(t->external_data[i]->key, key))
			return t->external_data[i]->value;
	return NULL;
}

static int parse_size(const char *s, uint64_t *v)
{
	char *end;

	if (!s) {
		*v = 0;
		return 0;
	}
	errno = 0;
	*v = strtoull(s, &end, 10);
	return *s && !*end && !errno && *s != '-' ? 0 : -EINVAL;
}

/* The file must lie under the model's directory: a relative path with no
 * ".." (ONNX's external data rule). */
static bool safe_location(const char *loc)
{
	if (!loc || !*loc || loc[0] == '/')
		return false;
	for (const char *p = loc; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return false;
		p += n + (p[n] == '/');
	}
	return true;
}

/* The external data's file: inside base_dir, with nbytes at the
 * offset. path gets it. */
static int check_external(ttc_ctx *ctx, const Onnx__TensorProto *t,
			  const char *base_dir, uint64_t nbytes)
{
	const char *loc = external_key(t, "location");
	uint64_t off, len;
	char path[4096];
	struct stat st;

	if (!safe_location(loc)) {
		ttc_diag_addf(ctx, "tensor '%s': external data location '%s' "
				   "is not a relative path inside the model's "
				   "directory", t->name, loc ? loc : "");
		return -EINVAL;
	}
	if (!base_dir) {
		ttc_diag_addf(ctx, "tensor '%s': external data '%s' but no "
				   "directory to read it from", t->name, loc);
		return -EINVAL;
	}
	if (parse_size(external_key(t, "offset"), &off) ||
	    parse_size(external_key(t, "length"), &len) ||
	    (external_key(t, "length") && len != nbytes)) {
		ttc_diag_addf(ctx, "tensor '%s': external data offset or "
				   "length is not %llu bytes", t->name,
			      (unsigned long long)nbytes);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/%s", base_dir, loc);
	if (stat(path, &st) || (uint64_t)st.st_size < off ||
	    (uint64_t)st.st_size - off < nbytes) {
		ttc_diag_addf(ctx, "tensor '%s': external data file %s does "
				   "not hold %llu bytes at offset %llu",
			      t->name, path, (unsigned long long)nbytes,
			      (unsigned long long)off);
		return -EINVAL;
	}
	return 0;
}

static int read_external(ttc_ctx *ctx, const Onnx__TensorProto *t,
			 const char *base_dir, void *dst, size_t nbytes)
{
	const char *loc = external_key(t, "location");
	uint64_t off = 0;
	char path[4096];
	FILE *f;
	int ok;

	parse_size(external_key(t, "offset"), &off);
	snprintf(path, sizeof(path), "%s/%s", base_dir, loc);
	f = fopen(path, "rb");
	ok = f && off <= LONG_MAX && !fseek(f, (long)off, SEEK_SET) &&
	     fread(dst, 1, nbytes, f) == nbytes;
	if (f)
		fclose(f);
	if (!ok) {
		ttc_diag_addf(ctx, "tensor '%s': cannot read %zu bytes at "
				   "offset %llu of external data file %s",
			      t->name, nbytes, (unsigned long long)off, path);
		return -EIO;
	}
	return 0;
}

/* ---- typed fields ---- */

static size_t typed_count(const Onnx__TensorProto *t)
{
	return t->n_float_data + t->n_int32_data + t->n_int64_data +
	       t->n_double_data + t->n_uint64_data;
}

/* Element i of the typed field as a double, stored through the host
 * tensor's rounding (every int type fits; 16-bit floats are bits). */
static void store_typed(ttc_tensor *dst, const Onnx__TensorProto *t,
			size_t i)
{
	int32_t dt = t->data_type;

	if (dt == DT_FLOAT16 || dt == DT_BFLOAT16) {
		uint16_t bits = (uint16_t)t->int32_data[i];

		memcpy((uint16_t *)dst->data + i, &bits, 2);
	} else if (t->n_float_data) {
		ttc_tensor_set(dst, i, t->float_data[i]);
	} else if (t->n_double_data) {
		ttc_tensor_set(dst, i, t->double_data[i]);
	} else if (t->n_int64_data) {
		/* keep the bits of every int64, whatever a double holds */
		if (ttc_type_elem_bytes(ttc_type_elem(dst->type)) == 8)
			memcpy((int64_t *)dst->data + i, &t->int64_data[i], 8);
		else
			ttc_tensor_set(dst, i, (double)t->int64_data[i]);
	} else if (t->n_uint64_data) {
		if (ttc_type_elem_bytes(ttc_type_elem(dst->type)) == 8)
			memcpy((uint64_t *)dst->data + i, &t->uint64_data[i], 8);
		else
			ttc_tensor_set(dst, i, (double)t->uint64_data[i]);
	} else {
		ttc_tensor_set(dst, i, t->int32_data[i]);
	}
}

static int tensor_shape(ttc_ctx *ctx, const Onnx__TensorProto *t,
			const ttc_type **type)
{
	const ttc_type *elem = onx_elem_type(ctx, t->data_type);
	uint64_t numel = 1;

	if (!elem) {
		ttc_diag_addf(ctx, "tensor '%s': element type %s is not "
				   "supported",
			      t->name ? t->name : "",
			      onx_dtype_name(t->data_type));
		return -ENOTSUP;
	}
	if (t->n_dims > TTC_MAX_RANK) {
		ttc_diag_addf(ctx, "tensor '%s': rank %zu (at most %d)",
			      t->name ? t->name : "", t->n_dims, TTC_MAX_RANK);
		return -ENOTSUP;
	}
	for (size_t k = 0; k < t->n_dims; k++) {
		if (t->dims[k] < 0 ||
		    (t->dims[k] && numel > ONX_MAX_NUMEL / (uint64_t)t->dims[k])) {
			ttc_diag_addf(ctx, "tensor '%s': dimension %zu is "
					   "%lld (negative, or the tensor is "
					   "over 2^40 elements)",
				      t->name ? t->name : "", k,
				      (long long)t->dims[k]);
			return -EINVAL;
		}
		numel *= (uint64_t)t->dims[k];
	}
	*type = ttc_tensor_type(ctx, t->dims, (unsigned)t->n_dims, elem, NULL);
	return *type ? 0 : -EINVAL;
}

/* Whether the tensor's data holds numel elements of nbytes in all (the
 * data is checked before anything that size is allocated). External
 * data is checked when it is read. */
static int check_size(ttc_ctx *ctx, const Onnx__TensorProto *t,
		      uint64_t numel, uint64_t nbytes)
{
	if (t->has_data_location &&
	    t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
		return 0;
	if (t->has_raw_data && t->raw_data.len != nbytes) {
		ttc_diag_addf(ctx, "tensor '%s': raw_data holds %zu bytes, its "
				   "%llu elements need %llu",
			      t->name ? t->name : "", t->raw_data.len,
			      (unsigned long long)numel,
			      (unsigned long long)nbytes);
		return -EINVAL;
	}
	if (!t->has_raw_data && typed_count(t) != numel) {
		ttc_diag_addf(ctx, "tensor '%s': holds %zu values, its shape "
				   "%llu", t->name ? t->name : "",
			      typed_count(t), (unsigned long long)numel);
		return -EINVAL;
	}
	return 0;
}

int onx_tensor(ttc_ctx *ctx, const Onnx__TensorProto *t,
	       const char *base_dir, ttc_tensor **res)
{
	const ttc_type *type;
	ttc_tensor *out;
	uint64_t numel, nbytes;
	int rc;

	*res = NULL;
	if ((rc = tensor_shape(ctx, t, &type)))
		return rc;
	numel = (uint64_t)ttc_type_numel(type);
	nbytes = numel * ttc_type_elem_bytes(ttc_type_elem(type));
	if ((rc = check_size(ctx, t, numel, nbytes)))
		return rc;
	if (t->has_data_location &&
	    t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL &&
	    (rc = check_external(ctx, t, base_dir, nbytes)))
		return rc;
	out = ttc_tensor_new(ctx, type);
	if (!out)
		return -ENOMEM;
	if (t->has_data_location &&
	    t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
		rc = read_external(ctx, t, base_dir, out->data, nbytes);
	else if (t->has_raw_data && nbytes)
		memcpy(out->data, t->raw_data.data, nbytes);
	else
		for (size_t i = 0; i < out->numel; i++)
			store_typed(out, t, i);
	if (rc) {
		ttc_tensor_free(out);
		return rc;
	}
	*res = out;
	return 0;
}

ttc_tensor *ttc_onnx_load_tensor(ttc_ctx *ctx, const char *path,
				 const char **name)
{
	Onnx__TensorProto *t;
	ttc_tensor *out = NULL;
	void *data;
	size_t len;
	char *dir, *slash;

	if (onx_read_file(ctx, path, &data, &len))
		return NULL;
	t = onnx__tensor_proto__unpack(NULL, len, data);
	free(data);
	if (!t) {
		ttc_diag_addf(ctx, "%s: not a serialized ONNX TensorProto",
			      path);
		return NULL;
	}
	dir = strdup(path);
	slash = dir ? strrchr(dir, '/') : NULL;
	if (slash)
		*slash = 0;
	if (dir)
		onx_tensor(ctx, t, slash ? dir : ".", &out);
	if (out && name)
		*name = ttc_intern(ctx, t->name ? t->name : "",
				   t->name ? strlen(t->name) : 0);
	free(dir);
	onnx__tensor_proto__free_unpacked(t, NULL);
	return out;
}
