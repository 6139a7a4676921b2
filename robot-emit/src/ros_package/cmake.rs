//! `CMakeLists.txt`: an ament_cmake package that builds nothing and installs its folders into
//! `share/<package>/`, where `FindPackageShare` finds them at launch.

use super::INSTALLED_FOLDERS;
use crate::format::header_comment;
use robot_model::model::Robot;

/// The `CMakeLists.txt` text.
pub(super) fn lists(robot: &Robot) -> String {
    format!(
        "# {header}\n\
         cmake_minimum_required(VERSION 3.8)\n\
         project({package})\n\
         \n\
         find_package(ament_cmake REQUIRED)\n\
         \n\
         install(\n  DIRECTORY {folders}\n  DESTINATION share/${{PROJECT_NAME}}\n)\n\
         \n\
         ament_package()\n",
        header = header_comment(robot),
        package = super::package_name(robot),
        folders = INSTALLED_FOLDERS.join(" "),
    )
}
