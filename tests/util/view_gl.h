/* view_gl.h -- GL objects and read-backs for the view's tests (GLEW loaded, a
 * context current; linked only into the tests that make one).  Each fails the
 * cmocka test on a GL error. */
#ifndef HOMG_VIEW_GL_H
#define HOMG_VIEW_GL_H

#include <stddef.h>

/* A GL_TEXTURE_2D with immutable storage of this sized internal format. */
unsigned view_gl_texture(unsigned internal_format, int w, int h);
/* A buffer object of `bytes` (GL_DYNAMIC_DRAW, contents undefined). */
unsigned view_gl_buffer(size_t bytes);
/* The texture's level 0 as floats (rgba8 = 0) or RGBA8 texels, malloc'd. */
void *view_gl_read_texture(unsigned texture, int w, int h, int rgba8);
/* The buffer's first bytes, malloc'd; copied by GL into a plain buffer first, so
 * a buffer on imported memory is read as GL's draws read it. */
void *view_gl_read_buffer(unsigned buffer, size_t bytes);

#endif
