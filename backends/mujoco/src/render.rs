//! Pictures of the simulation (feature `render`): one frame of a MuJoCo state, rendered headless
//! by MuJoCo's own renderer on an offscreen EGL context (mujoco-rs's `MjRenderer`), as RGB pixels
//! or a PNG file.
//!
//! Rendering needs an OpenGL driver reached through EGL at run time; none is linked at build
//! time (glutin opens `libEGL.so.1` when asked), so this builds anywhere. Where EGL or a driver is
//! missing, [`RenderError::NoGl`] says what to install ([`INSTALL_GL`]). On a machine without a
//! GPU, Mesa's software rasterizer (llvmpipe, in `libgl1-mesa-dri`) does the drawing.
//!
//! The camera ([`View`]) tracks the robot: it looks at the centre of mass of the first body under
//! the world (a floating base's root, the pelvis of a biped) from a distance proportional to the
//! model's extent, so the whole robot is in the frame wherever it walks.
//!
//! A frame costs a new EGL context and MuJoCo rendering context each time (tens to hundreds of
//! milliseconds on a software rasterizer): nothing is kept between frames, so no OpenGL state is
//! tied to a thread and [`crate::MujocoSystem`] stays `Send`. Take frames rarely, never in a
//! cycle that must keep its deadline.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use mujoco_rs::prelude::{MjData, MjModel, MjvCamera};
use mujoco_rs::renderer::{MjRenderer, RendererError, png};
use mujoco_rs::wrappers::mj_model::traits::{ModelType, ModelTypeMut};

/// What to install on Debian (or Ubuntu) for headless rendering: EGL (glvnd's loader), Mesa's
/// EGL vendor library and its OpenGL drivers (llvmpipe among them).
pub const INSTALL_GL: &str = "apt install libegl1 libegl-mesa0 libgl1-mesa-dri";

/// Largest frame side, pixels: beyond it the offscreen buffer of a software rasterizer costs
/// more memory and time than a picture of a robot is worth.
pub const MAX_SIDE: u32 = 4096;

/// Why a frame could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// No OpenGL context could be opened headless: no `libEGL.so.1`, no EGL vendor library, no
    /// driver for any EGL device.
    #[error(
        "no OpenGL for headless rendering: EGL opened no context ({reason}); install EGL and \
         Mesa's drivers: `{INSTALL_GL}`"
    )]
    NoGl {
        /// What EGL answered.
        reason: String,
    },
    /// A side of the requested frame is zero or larger than [`MAX_SIDE`].
    #[error("a frame of {width}x{height} pixels: each side must be 1 to {MAX_SIDE}")]
    Size {
        /// Requested width, pixels.
        width: u32,
        /// Requested height, pixels.
        height: u32,
    },
    /// MuJoCo's renderer failed after the context was opened.
    #[error("MuJoCo could not render the frame: {0}")]
    Render(String),
    /// The PNG could not be written.
    #[error("cannot write the frame into `{}`: {source}", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the file system or the encoder said.
        source: std::io::Error,
    },
}

/// Where the camera is and how large the frame is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// Frame width, pixels.
    pub width: u32,
    /// Frame height, pixels.
    pub height: u32,
    /// Camera azimuth about the world's +z, degrees (MuJoCo's convention: 90 looks along +y,
    /// 180 along +x, i.e. from the robot's front when it faces +x).
    pub azimuth: f64,
    /// Camera elevation, degrees; negative looks down.
    pub elevation: f64,
    /// Distance from the tracked centre of mass, in units of the model's extent
    /// (`mjModel.stat.extent`, about the robot's size).
    pub distance_per_extent: f64,
}

impl Default for View {
    /// 640x480 (MuJoCo's default offscreen buffer), a three-quarter view (azimuth 120°: more
    /// side than front, so bent knees show) from a little above, at
    /// 1.6 times the extent: a standing lite_biped spans about two thirds of the height.
    fn default() -> Self {
        View {
            width: 640,
            height: 480,
            azimuth: 120.0,
            elevation: -15.0,
            distance_per_extent: 1.6,
        }
    }
}

/// One rendered frame: RGB, 8 bits a channel, rows top to bottom.
#[derive(Clone, PartialEq, Eq)]
pub struct Frame {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl std::fmt::Debug for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Frame")
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

impl Frame {
    /// Width, pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height, pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels, `3 · width · height` bytes, row by row from the top left.
    pub fn rgb(&self) -> &[u8] {
        &self.rgb
    }

    /// The pixel at column `x`, row `y` (from the top left); `None` outside the frame.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 3]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let at = 3 * (y as usize * self.width as usize + x as usize);
        let p = self.rgb.get(at..at + 3)?;
        Some([p[0], p[1], p[2]])
    }

    /// Writes the frame as an 8-bit RGB PNG.
    pub fn write_png(&self, path: &Path) -> Result<(), RenderError> {
        let failed = |source: std::io::Error| RenderError::Write {
            path: path.to_path_buf(),
            source,
        };
        let file = File::create(path).map_err(failed)?;
        let mut encoder = png::Encoder::new(BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder
            .write_header()
            .map_err(|e| failed(std::io::Error::from(e)))?;
        writer
            .write_image_data(&self.rgb)
            .map_err(|e| failed(std::io::Error::from(e)))?;
        writer.finish().map_err(|e| failed(std::io::Error::from(e)))
    }
}

/// Checks that a frame of `view`'s size can be rendered for `data`'s model: opens the EGL and
/// MuJoCo rendering contexts, then closes them. What [`frame`] would fail with first, without
/// drawing anything.
pub fn check<M: ModelTypeMut>(data: &mut MjData<M>, view: &View) -> Result<(), RenderError> {
    renderer(data, view).map(drop)
}

/// Renders `data`'s current state (positions as `mj_forward` or the last `mj_step` left them)
/// through `view`'s camera.
///
/// Two visual settings of `data`'s model may change first, nothing else of the model or the data:
/// an offscreen buffer (`<visual><global offwidth offheight>`) smaller than the frame is enlarged,
/// and a model without a light of its own gets the emitted scene's brighter headlight (ambient
/// 0.3, diffuse 0.6) rather than drawing the robot dark grey on black.
pub fn frame<M: ModelTypeMut>(data: &mut MjData<M>, view: &View) -> Result<Frame, RenderError> {
    let mut renderer = renderer(data, view)?;
    renderer.sync_data(data).map_err(failed)?;
    renderer.render().map_err(failed)?;
    let rgb = renderer
        .rgb_flat()
        .ok_or_else(|| RenderError::Render("no RGB image came back".to_string()))?
        .to_vec();
    Ok(Frame {
        width: view.width,
        height: view.height,
        rgb,
    })
}

/// [`frame`], written into `path` as a PNG.
pub fn write_png<M: ModelTypeMut>(
    data: &mut MjData<M>,
    view: &View,
    path: &Path,
) -> Result<(), RenderError> {
    frame(data, view)?.write_png(path)
}

/// A renderer of `view`'s size and camera for `data`'s model, its offscreen buffer enlarged as
/// needed.
fn renderer<M: ModelTypeMut>(data: &mut MjData<M>, view: &View) -> Result<MjRenderer, RenderError> {
    let (width, height) = (view.width, view.height);
    let side = 1..=MAX_SIDE;
    if !side.contains(&width) || !side.contains(&height) {
        return Err(RenderError::Size { width, height });
    }
    // Both fit in i32: MAX_SIDE does.
    let global = &mut data.model_vis_mut().global;
    global.offwidth = global.offwidth.max(width as i32);
    global.offheight = global.offheight.max(height as i32);
    if data.model().nlight() == 0 {
        // Only MuJoCo's dim default headlight (ambient 0.1, diffuse 0.4) would light it: as
        // bright as the emitted scene sets it instead.
        let headlight = &mut data.model_vis_mut().headlight;
        for (ambient, diffuse) in headlight
            .ambient
            .iter_mut()
            .zip(headlight.diffuse.iter_mut())
        {
            *ambient = ambient.max(0.3);
            *diffuse = diffuse.max(0.6);
        }
    }
    let camera = camera(data, view);
    MjRenderer::builder()
        .width(width)
        .height(height)
        .camera(camera)
        .build(data.model())
        .map_err(|error| match error {
            RendererError::GlutinError(ref gl) => RenderError::NoGl {
                reason: gl.to_string(),
            },
            other => failed(other),
        })
}

/// A camera tracking the first body under the world (the robot's root), at `view`'s angles and
/// distance, looking at that body's centre of mass; MuJoCo's free camera over the whole model
/// when the world has no body.
fn camera<M: ModelType>(data: &MjData<M>, view: &View) -> MjvCamera {
    let model: &MjModel = data.model();
    let root = model
        .body_parentid()
        .iter()
        .enumerate()
        .skip(1)
        .find(|&(_, &parent)| parent == 0)
        .map(|(id, _)| id);
    let mut camera = match root {
        Some(body) => {
            let mut camera = MjvCamera::new_tracking(body);
            // MuJoCo moves a tracking camera's `lookat` only part of the way to the centre of
            // mass per update (smoothing for viewers): start it there.
            if let Some(&com) = data.subtree_com().get(body) {
                camera.lookat = com;
            }
            camera
        }
        None => MjvCamera::new_free(model),
    };
    camera.distance = view.distance_per_extent * model.stat().extent;
    camera.azimuth = view.azimuth;
    camera.elevation = view.elevation;
    camera
}

fn failed(error: RendererError) -> RenderError {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    RenderError::Render(text)
}
