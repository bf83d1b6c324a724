/* gl.c -- the view's GL side: loading the functions through the application's
 * loader, checking that a context is current and that the object is what the
 * desc says, saving and restoring the state the view touches. */
#include "view/view_internal.h"

#include <string.h>

#if HOMG_HAVE_GL

static int has_extension(view_gl *gl, const char *name)
{
    GLint n = 0;
    gl->GetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; i++) {
        const char *e = (const char *)gl->GetStringi(GL_EXTENSIONS, (GLuint)i);
        if (e && !strcmp(e, name))
            return 1;
    }
    return 0;
}

homg_status homg__view_gl_load(homg_view *v)
{
    homg_gl_loader load = v->desc.get_proc_address;
    view_gl *gl = &v->gl;
    const char *missing = NULL;
    memset(gl, 0, sizeof *gl);
#define VIEW_GL_LOAD(ret, name, params)         \
    gl->name = (ret(*) params)load("gl" #name); \
    if (!gl->name && !missing)                  \
        missing = "gl" #name;
    VIEW_GL_CORE(VIEW_GL_LOAD)
    if (!gl->GetString)
        return homg__fail(v->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_view_create: get_proc_address returned NULL for glGetString (no current GL context?)");
    if (missing)
        return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED,
                          "homg_view_create: get_proc_address has no %s (GL 3.2 needed)", missing);
    HOMG_TRY(homg__view_gl_current(v, "homg_view_create"));
    missing = NULL;
    VIEW_GL_EXT(VIEW_GL_LOAD)
    gl->memory_fd =
        !missing && has_extension(gl, "GL_EXT_memory_object") && has_extension(gl, "GL_EXT_memory_object_fd");
    gl->semaphore_fd = !missing && has_extension(gl, "GL_EXT_semaphore") && has_extension(gl, "GL_EXT_semaphore_fd");
    missing = NULL;
    VIEW_GL_TEX(VIEW_GL_LOAD)
    gl->slot_tex = !missing && gl->memory_fd;
#undef VIEW_GL_LOAD
    return HOMG_OK;
}

homg_status homg__view_gl_current(homg_view *v, const char *what)
{
    /* Without a current context glGetString returns NULL (GLVND's no-op dispatch, Mesa, NVIDIA). */
    if (!v->gl.GetString(GL_VERSION))
        return homg__fail(v->ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: no GL context is current on this thread", what);
    return HOMG_OK;
}

void homg__view_gl_drain(homg_view *v)
{
    for (int k = 0; k < 16 && v->gl.GetError() != GL_NO_ERROR; k++)
        ;
}

homg_status homg__view_gl_check(homg_view *v, const char *what)
{
    GLenum e = v->gl.GetError();
    if (e == GL_NO_ERROR)
        return HOMG_OK;
    homg__view_gl_drain(v);
    return homg__fail(v->ctx, HOMG_ERROR_BACKEND, "%s: GL error 0x%04x", what, (unsigned)e);
}

void homg__view_gl_save(homg_view *v, view_gl_state *s)
{
    view_gl *gl = &v->gl;
    gl->GetIntegerv(GL_TEXTURE_BINDING_2D, &s->texture);
    gl->GetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &s->unpack_buffer);
    gl->GetIntegerv(GL_COPY_READ_BUFFER_BINDING, &s->copy_read);
    gl->GetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &s->copy_write);
    gl->GetIntegerv(GL_UNPACK_ALIGNMENT, &s->alignment);
    gl->GetIntegerv(GL_UNPACK_ROW_LENGTH, &s->row_length);
    gl->GetIntegerv(GL_UNPACK_SKIP_ROWS, &s->skip_rows);
    gl->GetIntegerv(GL_UNPACK_SKIP_PIXELS, &s->skip_pixels);
}

void homg__view_gl_restore(homg_view *v, const view_gl_state *s)
{
    view_gl *gl = &v->gl;
    gl->BindTexture(GL_TEXTURE_2D, (GLuint)s->texture);
    gl->BindBuffer(GL_PIXEL_UNPACK_BUFFER, (GLuint)s->unpack_buffer);
    gl->BindBuffer(GL_COPY_READ_BUFFER, (GLuint)s->copy_read);
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)s->copy_write);
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, s->alignment);
    gl->PixelStorei(GL_UNPACK_ROW_LENGTH, s->row_length);
    gl->PixelStorei(GL_UNPACK_SKIP_ROWS, s->skip_rows);
    gl->PixelStorei(GL_UNPACK_SKIP_PIXELS, s->skip_pixels);
}

void homg__view_gl_tex_upload(homg_view *v, GLuint unpack_buffer, const void *data, int w, int h)
{
    view_gl *gl = &v->gl;
    gl->BindBuffer(GL_PIXEL_UNPACK_BUFFER, unpack_buffer);
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 4);
    gl->PixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    gl->PixelStorei(GL_UNPACK_SKIP_ROWS, 0);
    gl->PixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    gl->BindTexture(GL_TEXTURE_2D, v->object);
    gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, v->rgba8 ? GL_RGBA : GL_RED, v->rgba8 ? GL_UNSIGNED_BYTE : GL_FLOAT,
                      data);
}

homg_status homg__view_gl_new_buffer(homg_view *v, size_t bytes, GLuint *name)
{
    view_gl *gl = &v->gl;
    GLint saved = 0;
    *name = 0;
    gl->GetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &saved);
    gl->GenBuffers(1, name);
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, *name);
    gl->BufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_DRAW);
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)saved);
    if (gl->GetError() != GL_NO_ERROR) {
        homg__view_gl_drain(v);
        gl->DeleteBuffers(1, name);
        *name = 0;
        return homg__fail(v->ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_view_create: a GL buffer of %zu bytes", bytes);
    }
    return HOMG_OK;
}

static homg_status texture_object(homg_view *v)
{
    view_gl *gl = &v->gl;
    GLint saved = 0, w = 0, h = 0, fmt = 0;
    GLenum e;
    GLuint t = v->desc.gl_name;
    if (!gl->IsTexture(t))
        return homg__fail(v->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_view: desc.gl_name = %u is not a texture (never bound, deleted, or a buffer)", t);
    /* Binding a texture of another target raises GL_INVALID_OPERATION: ours, read here. */
    homg__view_gl_drain(v);
    gl->GetIntegerv(GL_TEXTURE_BINDING_2D, &saved);
    gl->BindTexture(GL_TEXTURE_2D, t);
    e = gl->GetError();
    if (e == GL_NO_ERROR) {
        gl->GetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
        gl->GetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &h);
        gl->GetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &fmt);
    }
    gl->BindTexture(GL_TEXTURE_2D, (GLuint)saved);
    homg__view_gl_drain(v);
    if (e != GL_NO_ERROR)
        return homg__fail(v->ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view: texture %u is not a GL_TEXTURE_2D", t);
    if (w <= 0 || h <= 0)
        return homg__fail(v->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_view: texture %u has no storage (level 0 is %d x %d)", t, w, h);
    if (fmt != GL_R32F && fmt != GL_RGBA8)
        return homg__fail(v->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_view: texture %u has internal format 0x%04x; the view writes GL_R32F (0x%04x) or "
                          "GL_RGBA8 (0x%04x)",
                          t, (unsigned)fmt, GL_R32F, GL_RGBA8);
    if (v->desc.format != HOMG_VIEW_FORMAT_DEFAULT && (v->desc.format == HOMG_VIEW_RGBA8) != (fmt == GL_RGBA8))
        return homg__fail(v->ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view: desc.format is %s but texture %u is %s",
                          v->desc.format == HOMG_VIEW_RGBA8 ? "RGBA8" : "R32F", t,
                          fmt == GL_RGBA8 ? "GL_RGBA8" : "GL_R32F");
    v->width = w;
    v->height = h;
    v->rgba8 = fmt == GL_RGBA8;
    return HOMG_OK;
}

static homg_status buffer_object(homg_view *v)
{
    view_gl *gl = &v->gl;
    GLint saved = 0, size = 0;
    GLuint b = v->desc.gl_name;
    v->rgba8 = v->desc.format == HOMG_VIEW_RGBA8;
    if (!b) {
        if (v->desc.count <= 0)
            return homg__fail(v->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "homg_view_create: desc.count = %d: a view-owned buffer needs count >= 1", v->desc.count);
        v->width = v->desc.count;
        v->height = 1;
        return HOMG_OK;
    }
    if (!gl->IsBuffer(b))
        return homg__fail(v->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_view: desc.gl_name = %u is not a buffer object (never bound, deleted, or a texture)",
                          b);
    gl->GetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &saved);
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, b);
    gl->GetBufferParameteriv(GL_COPY_WRITE_BUFFER, GL_BUFFER_SIZE, &size);
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)saved);
    homg__view_gl_drain(v);
    if (size < 4)
        return homg__fail(v->ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_view: buffer %u holds %d bytes: less than one value", b, (int)size);
    v->width = size / 4;
    v->height = 1;
    return HOMG_OK;
}

homg_status homg__view_gl_object(homg_view *v)
{
    return v->desc.target == HOMG_VIEW_BUFFER ? buffer_object(v) : texture_object(v);
}

#endif
