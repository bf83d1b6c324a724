/* view_gl.c -- GL objects and read-backs for the view's tests (view_gl.h). */
#include "view_gl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <GL/glew.h>
#include <stdlib.h>

unsigned view_gl_texture(unsigned internal_format, int w, int h)
{
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, internal_format, w, h);
    glBindTexture(GL_TEXTURE_2D, 0);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    return t;
}

unsigned view_gl_buffer(size_t bytes)
{
    GLuint b;
    glGenBuffers(1, &b);
    glBindBuffer(GL_COPY_WRITE_BUFFER, b);
    glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    return b;
}

void *view_gl_read_texture(unsigned texture, int w, int h, int rgba8)
{
    void *p = malloc((size_t)w * h * 4);
    glBindTexture(GL_TEXTURE_2D, texture);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTexImage(GL_TEXTURE_2D, 0, rgba8 ? GL_RGBA : GL_RED, rgba8 ? GL_UNSIGNED_BYTE : GL_FLOAT, p);
    glBindTexture(GL_TEXTURE_2D, 0);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    return p;
}

void *view_gl_read_buffer(unsigned buffer, size_t bytes)
{
    void *p = malloc(bytes);
    GLuint tmp = view_gl_buffer(bytes);
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, tmp);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)bytes);
    glBindBuffer(GL_COPY_READ_BUFFER, tmp);
    glGetBufferSubData(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)bytes, p);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glDeleteBuffers(1, &tmp);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    return p;
}
