/* render/shaders.h — the shader sources embedded from shaders/ at build time
 * by tools/embed.sh into build/gen/shaders.c (one array + length per file). */
#ifndef RND_SHADERS_H
#define RND_SHADERS_H

extern const char rnd_shader_seg_vert[], rnd_shader_head_vert[], rnd_shader_dot_vert[],
    rnd_shader_text_vert[], rnd_shader_seg_frag[], rnd_shader_head_frag[], rnd_shader_dot_frag[], rnd_shader_text_frag[], rnd_shader_img_frag[];
extern const unsigned rnd_shader_seg_vert_len, rnd_shader_head_vert_len, rnd_shader_dot_vert_len,
    rnd_shader_text_vert_len, rnd_shader_seg_frag_len, rnd_shader_head_frag_len, rnd_shader_dot_frag_len,
    rnd_shader_text_frag_len, rnd_shader_img_frag_len;

#endif
